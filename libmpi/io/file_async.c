/*
 * file_async.c: nonblocking independent I/O (MPI_File_iread, _iwrite,
 * their _at and _shared forms). The call checks its arguments and
 * prepares the memory side, then a worker thread does the reads and
 * writes while the caller computes; the progress engine completes the
 * request (and unpacks what a read brought) once the worker is done.
 * The worker touches only the file's descriptor, view and the job's own
 * buffer; everything else stays on the threads that call MPI.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "datatype/datatype.h"
#include "pt2pt/progress.h"
#include "pt2pt/request.h"
#include "io/io.h"

#include <pthread.h>
#include <stdlib.h>

struct io_job {
    struct tide_file *f;
    bool write;
    MPI_Offset sb;
    struct tide_io_mem m;
    size_t done;
    int rc;
    struct tide_request *req;
    const char *fn;
    struct io_job *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static struct io_job *todo, **todo_tail = &todo; /* FIFO: a file's jobs run in the order they were made */
static struct io_job *finished;
static pthread_t worker;
static bool worker_running, worker_stop;
static int in_flight;

static void *worker_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!todo && !worker_stop)
            pthread_cond_wait(&work, &lock);
        if (!todo)
            break;
        struct io_job *j = todo;
        todo = j->next;
        if (!todo)
            todo_tail = &todo;
        pthread_mutex_unlock(&lock);
        j->rc = tide_io_rw(j->f, j->write, j->sb, &j->m, &j->done, j->fn);
        pthread_mutex_lock(&lock);
        j->next = finished;
        finished = j;
        tide_progress_wake();
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* progress hook: complete the requests of finished jobs */
static int reap(void)
{
    if (!__atomic_load_n(&finished, __ATOMIC_ACQUIRE))
        return 0;
    pthread_mutex_lock(&lock);
    struct io_job *list = finished;
    finished = NULL;
    pthread_mutex_unlock(&lock);
    int n = 0;
    while (list) {
        struct io_job *j = list;
        list = j->next;
        int rc = j->rc;
        if (rc == MPI_SUCCESS && !j->write)
            rc = tide_io_mem_finish(j->f, &j->m, j->done, j->fn);
        struct tide_request *r = j->req;
        tide_status_empty(&r->status);
        tide_io_status(&r->status, rc ? 0 : tide_io_mem_user_bytes(&j->m, j->done));
        r->error = rc;
        tide_io_mem_free(&j->m);
        tide_datatype_release(j->m.dt);
        j->f->async_pending--;
        in_flight--;
        free(j);
        tide_request_complete(r);
        n++;
    }
    return n;
}

int tide_io_start_async(struct tide_file *f, bool write, MPI_Offset pos_etypes, void *buf, MPI_Count count,
                        struct tide_datatype *dt, MPI_Request *request, const char *fn)
{
    struct io_job *j = calloc(1, sizeof *j);
    struct tide_request *r = j ? tide_request_new(TIDE_REQ_OTHER) : NULL;
    if (!r) {
        free(j);
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    int rc = tide_io_mem_start(f, write, buf, count, dt, pos_etypes, &j->m, fn);
    if (rc == MPI_SUCCESS && !worker_running) {
        worker_stop = false;
        if (pthread_create(&worker, NULL, worker_main, NULL) != 0)
            rc = tide_err(MPI_ERR_OTHER, "%s: cannot start the I/O thread", fn);
        else
            worker_running = true;
        tide_progress_register(reap);
    }
    if (rc) {
        tide_io_mem_free(&j->m);
        free(j);
        r->error = rc;
        tide_request_complete(r);
        tide_request_free(r);
        return rc;
    }
    tide_datatype_retain(dt);
    /* errors at the wait are returned (the file's private communicator
     * has MPI_ERRORS_RETURN) */
    r->comm = f->comm;
    tide_comm_retain(f->comm);
    j->f = f;
    j->write = write;
    j->sb = pos_etypes * (MPI_Offset)f->esize;
    j->req = r;
    j->fn = fn;
    f->async_pending++;
    in_flight++;
    pthread_mutex_lock(&lock);
    *todo_tail = j;
    todo_tail = &j->next;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&lock);
    *request = r->handle;
    return MPI_SUCCESS;
}

static bool file_idle(void *arg)
{
    return ((struct tide_file *)arg)->async_pending == 0;
}

void tide_io_async_drain(struct tide_file *f)
{
    if (f->async_pending)
        tide_progress_until(file_idle, f);
}

static bool all_idle(void *arg)
{
    (void)arg;
    return in_flight == 0;
}

void tide_io_async_finalize(void)
{
    if (in_flight)
        tide_progress_until(all_idle, NULL);
    if (!worker_running)
        return;
    pthread_mutex_lock(&lock);
    worker_stop = true;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&lock);
    pthread_join(worker, NULL);
    worker_running = false;
}
