/*
 * io.h: MPI-IO (MPI-2.2 chapter 13, with the MPI-3 nonblocking
 * collective calls), as the files of libmpi/io/ share it.
 *
 * A file handle holds a private duplicate of the opening communicator, a
 * POSIX descriptor, the view (displacement, etype, filetype, data
 * representation), the individual file pointer, the hints in force and a
 * window hosting the shared file pointer.
 *
 * Data move as a "stream": the bytes the view makes visible, in view
 * order, in the file's data representation. A position in etypes is
 * stream byte position * etype's file size; the view turns a range of
 * stream bytes into file segments (file_view.c). Accesses then go
 * through the file-system layer (file_fs.c): independent ones one
 * segment at a time or by data sieving (file_rw.c), collective ones by
 * two-phase I/O through aggregators (file_coll.c).
 */
#ifndef TIDE_IO_H
#define TIDE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct tide_comm;
struct tide_datatype;
struct tide_request;
struct tide_datarep;

/* Hints in force (MPI_File_get_info reports them all). */
struct tide_io_hints {
    int cb_nodes;              /* aggregators for collective buffering */
    size_t cb_buffer_size;     /* bytes per aggregator per round */
    int cb_read, cb_write;     /* TIDE_IO_ENABLE / DISABLE / AUTOMATIC */
    size_t ind_rd_buffer_size; /* data sieving buffer, reads */
    size_t ind_wr_buffer_size; /* data sieving buffer, writes */
    int ds_read, ds_write;     /* data sieving on/off/automatic */
    size_t striping_unit;      /* file domains are aligned to it (0: none) */
    int striping_factor;
    char *cb_config_list;      /* kept and reported, not interpreted */
};
enum { TIDE_IO_AUTOMATIC = 0, TIDE_IO_ENABLE = 1, TIDE_IO_DISABLE = 2 };

struct tide_file {
    int handle;
    struct tide_comm *comm;     /* private duplicate of the opening communicator */
    MPI_Comm comm_h;            /* its handle */
    int rank, size;
    int fd;
    bool fd_readable;           /* fd was opened for reading too (data sieving may read) */
    int amode;
    char *filename;
    MPI_Errhandler errhandler;
    bool atomic;
    MPI_Info info;              /* the user's hints (set at open / set_info / set_view) */
    struct tide_io_hints hints;
    /* the view */
    MPI_Offset disp;
    struct tide_datatype *etype, *filetype;
    MPI_Datatype etype_h, filetype_h;
    char datarep[MPI_MAX_DATAREP_STRING];
    const struct tide_datarep *rep; /* NULL: native or internal (no conversion) */
    size_t esize;               /* bytes of one etype in the file */
    size_t fsize;               /* bytes of data of one filetype in the file */
    MPI_Aint fextent;           /* extent of the filetype in the file */
    /* the individual file pointer, in etypes of the view */
    MPI_Offset pos;
    /* the shared file pointer (file_shared.c): a counter in etypes */
    MPI_Win shared_win;
    /* a split collective begun and not yet ended */
    MPI_Request split_req;
    int split_kind;             /* which _begin (TIDE_SPLIT_*), 0 if none */
    const void *split_buf;
    int async_pending;          /* nonblocking independent accesses not yet complete */
    int coll_refused;           /* set while a collective call this process refused takes part */
};
enum { TIDE_SPLIT_READ_ALL = 1, TIDE_SPLIT_WRITE_ALL, TIDE_SPLIT_READ_AT_ALL, TIDE_SPLIT_WRITE_AT_ALL,
       TIDE_SPLIT_READ_ORDERED, TIDE_SPLIT_WRITE_ORDERED };

struct tide_file *tide_file_get(MPI_File h);
/* A barrier on the file's communicator. */
int tide_io_barrier(struct tide_file *f);
/* The view every file starts with (disp 0, MPI_BYTE, "native") and
 * letting go of the view's types. */
int tide_io_view_default(struct tide_file *f);
void tide_io_view_free(struct tide_file *f);

/* Declare f as the file of handle h, or raise MPI_ERR_FILE (through the
 * default file handler) from fn. */
#define FILE_OR_FAIL(fn, h, f)                                                                            \
    struct tide_file *f = tide_file_get(h);                                                               \
    if (!f)                                                                                               \
        return tide_raise_file(NULL, tide_err(MPI_ERR_FILE, "%s: invalid file%s (argument fh)", fn,       \
                                              (h) == MPI_FILE_NULL ? " MPI_FILE_NULL" : ""));
#define TIDE_ERR_FILE(f, cls, ...) tide_raise_file((f), tide_err((cls), __VA_ARGS__))

/* ---- segments of the file ---- */

struct tide_io_seg {
    MPI_Offset off;
    size_t len;
};
struct tide_io_segs {
    struct tide_io_seg *v;
    size_t n, cap;
};
void tide_io_segs_free(struct tide_io_segs *s);
/* Append the file segments that stream bytes [sb, sb + len) of f's view
 * occupy, in stream order (which is file order: filetypes are
 * monotonic); adjacent segments are merged. 0 or an MPI error code. */
int tide_io_view_segments(const struct tide_file *f, MPI_Offset sb, size_t len, struct tide_io_segs *out);
/* The file offset of stream byte sb (MPI_File_get_byte_offset). */
MPI_Offset tide_io_view_offset(const struct tide_file *f, MPI_Offset sb);

/* ---- the memory side of an access ---- */

/* count elements of dt at buf as the stream bytes they are in the file:
 * data points at len bytes (buf itself when dt is contiguous and the
 * representation native, else a temporary that owned is set for). For a
 * write the bytes are filled (converted to the file's representation);
 * for a read, tide_io_mem_finish copies the bytes that arrived (the first
 * `got`) back into the user's buffer. pos_bytes is the stream position
 * (user conversion functions get it). */
struct tide_io_mem {
    void *data;
    size_t len;
    bool owned;
    void *buf;
    MPI_Count count;
    struct tide_datatype *dt;
    MPI_Offset pos_etypes;
};
int tide_io_mem_start(struct tide_file *f, bool write, void *buf, MPI_Count count, struct tide_datatype *dt,
                      MPI_Offset pos_etypes, struct tide_io_mem *m, const char *fn);
int tide_io_mem_finish(struct tide_file *f, struct tide_io_mem *m, size_t got, const char *fn);
void tide_io_mem_free(struct tide_io_mem *m);
/* The bytes of the user's type that `got` stream bytes stand for (what a
 * status counts; differs from got under a converting representation). */
size_t tide_io_mem_user_bytes(const struct tide_io_mem *m, size_t got);

/* ---- the file-system layer (file_fs.c) ---- */

/* Read/write exactly len bytes at off (retrying short transfers and
 * EINTR). A read stops at the end of the file: *got says how many bytes
 * arrived (the rest of buf is zeroed). 0 or an MPI error code naming fn. */
int tide_fs_pread(int fd, void *buf, size_t len, MPI_Offset off, size_t *got, const char *fn);
int tide_fs_pwrite(int fd, const void *buf, size_t len, MPI_Offset off, const char *fn);
/* Byte-range lock of [off, off + len) (len 0: to the end), blocking;
 * write selects an exclusive lock. */
int tide_fs_lock(int fd, MPI_Offset off, MPI_Offset len, bool write);
void tide_fs_unlock(int fd, MPI_Offset off, MPI_Offset len);
/* An MPI error code of the class errno calls for, naming fn and what. */
int tide_fs_error(int err, const char *fn, const char *what);

/* ---- independent access (file_rw.c) ---- */

/* Read or write the stream bytes of m at stream byte sb: one segment at a
 * time or by data sieving, under a byte-range lock in atomic mode.
 * *done gets the bytes moved (a read stops at the end of the file). */
int tide_io_rw(struct tide_file *f, bool write, MPI_Offset sb, struct tide_io_mem *m, size_t *done,
               const char *fn);
/* The whole independent call: check, memory side, access, status.
 * pos_etypes is where it starts. */
int tide_io_independent(struct tide_file *f, bool write, MPI_Offset pos_etypes, void *buf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Status *status, MPI_Count *etypes_done, const char *fn);
/* Argument checks every data access call makes (amode against the
 * direction, count, datatype, etype multiple, sequential mode). */
int tide_io_check_access(struct tide_file *f, bool write, MPI_Count count, MPI_Datatype datatype,
                         struct tide_datatype **dt, const char *fn);
/* Do plain writes take a byte-range lock (data sieving writes may be in
 * use, and they read-modify-write blocks under one)? */
bool tide_io_writes_lock(const struct tide_file *f);
/* A status for bytes of data moved by an access of dt. */
void tide_io_status(MPI_Status *status, size_t bytes);
/* A request already complete with this status and error (the
 * nonblocking independent calls, which do their I/O when started). */
int tide_io_done_request(int error, size_t bytes, MPI_Request *request);

/* ---- nonblocking independent access (file_async.c) ---- */

/* Start the access on the I/O thread; *request completes when it is
 * done. Arguments already checked. 0 or an error code (not raised). */
int tide_io_start_async(struct tide_file *f, bool write, MPI_Offset pos_etypes, void *buf, MPI_Count count,
                        struct tide_datatype *dt, MPI_Request *request, const char *fn);
/* Wait for the file's nonblocking accesses (MPI_File_close). */
void tide_io_async_drain(struct tide_file *f);
void tide_io_async_finalize(void);

/* ---- collective access (file_coll.c) ---- */

/* A collective read or write of count elements of dt at buf, starting at
 * stream byte sb of each rank's view (each rank its own sb). With
 * request NULL it runs to completion; otherwise it is started as a
 * nonblocking collective and *request completes it. *status (blocking)
 * gets the bytes this rank moved. Two-phase I/O through aggregators when
 * collective buffering is on (hints), else each rank's own access at the
 * right time. */
int tide_io_collective(struct tide_file *f, bool write, MPI_Offset sb, void *buf, MPI_Count count,
                       struct tide_datatype *dt, MPI_Request *request, MPI_Status *status, const char *fn);

/* ---- shared file pointer (file_shared.c) ---- */

int tide_io_shared_open(struct tide_file *f);
void tide_io_shared_close(struct tide_file *f);
/* Atomically fetch the shared pointer and add delta (etypes). */
int tide_io_shared_fetch_add(struct tide_file *f, MPI_Offset delta, MPI_Offset *old);
int tide_io_shared_set(struct tide_file *f, MPI_Offset value);

/* ---- data representations (file_datarep.c) ---- */

const struct tide_datarep *tide_datarep_find(const char *name);
/* Bytes count elements of dt take in the file under rep. */
int tide_datarep_size(const struct tide_datarep *rep, struct tide_datatype *dt, MPI_Count count,
                      size_t *bytes, const char *fn);
/* Extent of dt in the file under rep (MPI_File_get_type_extent). */
int tide_datarep_extent(const struct tide_datarep *rep, struct tide_datatype *dt, MPI_Aint *extent,
                        const char *fn);
/* Convert count elements of dt between memory (buf) and the file's bytes
 * (filebuf, the size tide_datarep_size gives). position: the stream
 * position in etypes (for user conversion functions). */
int tide_datarep_write(const struct tide_datarep *rep, const void *buf, MPI_Count count,
                       struct tide_datatype *dt, void *filebuf, MPI_Offset position, const char *fn);
int tide_datarep_read(const struct tide_datarep *rep, void *buf, MPI_Count count, struct tide_datatype *dt,
                      const void *filebuf, MPI_Offset position, const char *fn);
void tide_datarep_finalize(void);

/* ---- hints (file_info.c) ---- */

void tide_io_hints_default(struct tide_io_hints *h, int nprocs);
/* Take the hints Tide knows from info (others are kept for get_info). */
void tide_io_hints_apply(struct tide_io_hints *h, int nprocs, MPI_Info info);
/* Keep info's keys on the file's own info object (what get_info starts from). */
int tide_io_keep_info(struct tide_file *f, MPI_Info info);
/* The info object MPI_File_get_info returns. */
int tide_io_hints_info(const struct tide_file *f, MPI_Info *out);

/* ---- module ---- */

void tide_io_finalize(void);

#endif
