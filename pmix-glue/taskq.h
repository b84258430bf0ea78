/*
 * taskq.h: hands work from PMIx's threads to the daemon's libevent loop.
 *
 * PMIx server upcalls arrive on PMIx's progress thread, where blocking
 * PMIx_server_* calls deadlock. An upcall copies its arguments into a task
 * (a struct whose first member is struct tide_task), pushes it here, and
 * returns; the main loop runs tasks in push order.
 */
#ifndef TIDE_TASKQ_H
#define TIDE_TASKQ_H

struct event_base;

struct tide_task {
    void (*run)(struct tide_task *task); /* runs on the main loop; frees the task */
    struct tide_task *next;
};

int tide_taskq_init(struct event_base *base);
/* Thread-safe; wakes the main loop. */
void tide_taskq_push(struct tide_task *task);
/* Run everything queued now (main loop only). */
void tide_taskq_drain(void);
void tide_taskq_fini(void);

#endif
