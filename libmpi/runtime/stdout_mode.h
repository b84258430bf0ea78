/*
 * stdout_mode.h: how a rank's stdout is buffered (stdout_mode.c).
 */
#ifndef TIDE_STDOUT_MODE_H
#define TIDE_STDOUT_MODE_H

/* When this process was started by a tided and its stdout is a pipe,
 * make stdout line-buffered unless the parameter stdout_line_buffered
 * is 0. Once per process; the parameters must have been read. */
void tide_stdout_line_buffer(void);

#endif
