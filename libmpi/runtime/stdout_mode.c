/*
 * stdout_mode.c: a rank's stdout line-buffered. The daemon reads a rank's
 * stdout from a pipe (or a pseudo-terminal, parameter stdout_pty), and C's
 * stdio buffers a pipe fully: a rank killed or aborting right after a
 * printf without fflush loses what it printed, and the lines of a running
 * rank reach mpiexec in 4 KiB bursts. As on a terminal (and as Open MPI's
 * pseudo-terminals give), each line is written at its newline. stderr is
 * left unbuffered, as C has it.
 */
#include "runtime/stdout_mode.h"
#include "params.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void tide_stdout_line_buffer(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    /* TIDE_FINALIZE_FD: started by a tided, whose pipe stdout is */
    if (!getenv("TIDE_FINALIZE_FD") || tide_config_int("stdout_line_buffered") == 0)
        return;
    struct stat st;
    if (fstat(STDOUT_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode))
        return; /* a terminal is line-buffered already; a file the user chose stays as it is */
    /* glibc keeps what is already buffered (printed before MPI_Init):
     * written now, it is not lost either */
    setvbuf(stdout, NULL, _IOLBF, 0);
    fflush(stdout);
}
