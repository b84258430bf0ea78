/*
 * file_errhandler.c: error handlers on files (MPI-2.2 8.3.3, 13.7):
 * MPI_File_set/get/call_errhandler on a file or on MPI_FILE_NULL (whose
 * handler, MPI_ERRORS_RETURN at start, new files take), and raising an
 * error on a file. An error not tied to an open file (MPI_File_open,
 * MPI_File_delete, a bad handle) goes to MPI_FILE_NULL's handler, as the
 * standard says.
 */
#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "io/io.h"

#include <stdio.h>

int tide_raise_file(struct tide_file *f, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    if (!f)
        return tide_errhandler_invoke(tide_file_default_errhandler, TIDE_EH_FILE, MPI_FILE_NULL, "MPI_FILE_NULL",
                                      code);
    char where[300];
    snprintf(where, sizeof where, "file %s", f->filename);
    return tide_errhandler_invoke(f->errhandler, TIDE_EH_FILE, f->handle, where, code);
}

int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_set_errhandler";
    struct tide_file *f = NULL;
    if (file != MPI_FILE_NULL && !(f = tide_file_get(file)))
        return tide_raise_file(NULL, tide_err(MPI_ERR_FILE, "%s: invalid file (argument file)", fn));
    struct tide_errhandler *e = tide_errhandler_get(errhandler);
    if (!e)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: invalid error handler (argument errhandler)", fn);
    if (e->kind != TIDE_EH_ANY && e->kind != TIDE_EH_FILE)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: the error handler was not made for files (argument errhandler)",
                             fn);
    MPI_Errhandler *slot = f ? &f->errhandler : &tide_file_default_errhandler;
    tide_errhandler_retain(errhandler);
    tide_errhandler_release(*slot);
    *slot = errhandler;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_set_errhandler)

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_get_errhandler";
    struct tide_file *f = NULL;
    if (file != MPI_FILE_NULL && !(f = tide_file_get(file)))
        return tide_raise_file(NULL, tide_err(MPI_ERR_FILE, "%s: invalid file (argument file)", fn));
    if (!errhandler)
        return TIDE_ERR_FILE(f, MPI_ERR_ARG, "%s: errhandler must not be NULL", fn);
    MPI_Errhandler eh = f ? f->errhandler : tide_file_default_errhandler;
    tide_errhandler_retain(eh);
    *errhandler = eh;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_get_errhandler)

int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_File_call_errhandler";
    struct tide_file *f = NULL;
    if (fh != MPI_FILE_NULL && !(f = tide_file_get(fh)))
        return tide_raise_file(NULL, tide_err(MPI_ERR_FILE, "%s: invalid file (argument fh)", fn));
    tide_raise_file(f, errorcode);
    /* the call itself succeeded if the handler returned */
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_File_call_errhandler)
