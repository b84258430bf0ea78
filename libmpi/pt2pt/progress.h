/*
 * progress.h: the one progress engine. Everything that waits (MPI_Wait,
 * blocking sends and receives, collectives, finalize) waits here: it polls
 * every transport and runs pending work, spins for a short while, then
 * yields, then sleeps in poll() on the transports' descriptors until a
 * peer rings. When ranks outnumber cores it spins much less, so waiting
 * ranks hand the cores to the ones with work.
 */
#ifndef TIDE_PROGRESS_H
#define TIDE_PROGRESS_H

#include <stdbool.h>

/* One pass over everything; returns how much happened. */
int tide_progress(void);
/* Progress until done(arg) is true. done is asked any number of times,
 * also again after it has said true, so it must only look, never take
 * or change anything; it returns with the library lock held since the
 * last true answer, so what done saw is still there. */
void tide_progress_until(bool (*done)(void *), void *arg);
/* Progress until *flag becomes true. */
void tide_progress_wait_flag(volatile bool *flag);
/* How deep this thread is in tide_progress / tide_progress_until (0:
 * not inside the engine). */
extern _Thread_local int tide_progress_depth;
/* Extra work run on every pass (collective schedules, RMA, ...). */
void tide_progress_register(int (*fn)(void));
void tide_progress_init(void);
void tide_progress_finalize(void);
/* Threads asleep in the progress engine's poll() (MPI_THREAD_MULTIPLE):
 * completing a request then rings them awake, since the request may be
 * what one of them waits for. */
extern int tide_progress_sleepers;
/* Ring them (once until one of them sleeps again). */
void tide_progress_wake_sleepers(void);
/* Wake a thread sleeping in the progress engine (safe from any thread,
 * e.g. a PMIx callback that completed something the engine waits on). */
void tide_progress_wake(void);

#endif
