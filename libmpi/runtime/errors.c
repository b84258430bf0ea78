/*
 * errors.c: error codes and classes, their strings, user-defined classes
 * and codes (MPI_Add_error_class/code/string), MPI_Error_string and
 * MPI_Error_class.
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "mpi-ext.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const class_strings[] = {
    [MPI_SUCCESS] = "MPI_SUCCESS: no error",
    [MPI_ERR_BUFFER] = "MPI_ERR_BUFFER: invalid buffer pointer",
    [MPI_ERR_COUNT] = "MPI_ERR_COUNT: invalid count argument",
    [MPI_ERR_TYPE] = "MPI_ERR_TYPE: invalid datatype",
    [MPI_ERR_TAG] = "MPI_ERR_TAG: invalid tag argument",
    [MPI_ERR_COMM] = "MPI_ERR_COMM: invalid communicator",
    [MPI_ERR_RANK] = "MPI_ERR_RANK: invalid rank",
    [MPI_ERR_REQUEST] = "MPI_ERR_REQUEST: invalid request (handle)",
    [MPI_ERR_ROOT] = "MPI_ERR_ROOT: invalid root",
    [MPI_ERR_GROUP] = "MPI_ERR_GROUP: invalid group",
    [MPI_ERR_OP] = "MPI_ERR_OP: invalid operation",
    [MPI_ERR_TOPOLOGY] = "MPI_ERR_TOPOLOGY: invalid topology",
    [MPI_ERR_DIMS] = "MPI_ERR_DIMS: invalid dimension argument",
    [MPI_ERR_ARG] = "MPI_ERR_ARG: invalid argument of some other kind",
    [MPI_ERR_UNKNOWN] = "MPI_ERR_UNKNOWN: unknown error",
    [MPI_ERR_TRUNCATE] = "MPI_ERR_TRUNCATE: message truncated on receive",
    [MPI_ERR_OTHER] = "MPI_ERR_OTHER: known error not in this list",
    [MPI_ERR_INTERN] = "MPI_ERR_INTERN: internal MPI (implementation) error",
    [MPI_ERR_IN_STATUS] = "MPI_ERR_IN_STATUS: error code is in status",
    [MPI_ERR_PENDING] = "MPI_ERR_PENDING: pending request",
    [MPI_ERR_ACCESS] = "MPI_ERR_ACCESS: permission denied",
    [MPI_ERR_AMODE] = "MPI_ERR_AMODE: error related to the amode passed to MPI_FILE_OPEN",
    [MPI_ERR_ASSERT] = "MPI_ERR_ASSERT: invalid assert argument",
    [MPI_ERR_BAD_FILE] = "MPI_ERR_BAD_FILE: invalid file name",
    [MPI_ERR_BASE] = "MPI_ERR_BASE: invalid base argument",
    [MPI_ERR_CONVERSION] = "MPI_ERR_CONVERSION: an error occurred in a user data conversion function",
    [MPI_ERR_DISP] = "MPI_ERR_DISP: invalid displacement argument",
    [MPI_ERR_DUP_DATAREP] = "MPI_ERR_DUP_DATAREP: data representation identifier already registered",
    [MPI_ERR_FILE_EXISTS] = "MPI_ERR_FILE_EXISTS: file exists",
    [MPI_ERR_FILE_IN_USE] = "MPI_ERR_FILE_IN_USE: file operation could not be completed, the file is in use",
    [MPI_ERR_FILE] = "MPI_ERR_FILE: invalid file handle",
    [MPI_ERR_INFO_KEY] = "MPI_ERR_INFO_KEY: key longer than MPI_MAX_INFO_KEY",
    [MPI_ERR_INFO_NOKEY] = "MPI_ERR_INFO_NOKEY: invalid key passed to MPI_INFO_DELETE",
    [MPI_ERR_INFO_VALUE] = "MPI_ERR_INFO_VALUE: value longer than MPI_MAX_INFO_VAL",
    [MPI_ERR_INFO] = "MPI_ERR_INFO: invalid info argument",
    [MPI_ERR_IO] = "MPI_ERR_IO: other I/O error",
    [MPI_ERR_KEYVAL] = "MPI_ERR_KEYVAL: invalid keyval",
    [MPI_ERR_LOCKTYPE] = "MPI_ERR_LOCKTYPE: invalid locktype argument",
    [MPI_ERR_NAME] = "MPI_ERR_NAME: invalid service name passed to MPI_LOOKUP_NAME",
    [MPI_ERR_NO_MEM] = "MPI_ERR_NO_MEM: MPI_ALLOC_MEM failed because memory is exhausted",
    [MPI_ERR_NOT_SAME] = "MPI_ERR_NOT_SAME: collective argument not identical on all processes",
    [MPI_ERR_NO_SPACE] = "MPI_ERR_NO_SPACE: not enough space",
    [MPI_ERR_NO_SUCH_FILE] = "MPI_ERR_NO_SUCH_FILE: file does not exist",
    [MPI_ERR_PORT] = "MPI_ERR_PORT: invalid port name passed to MPI_COMM_CONNECT",
    [MPI_ERR_QUOTA] = "MPI_ERR_QUOTA: quota exceeded",
    [MPI_ERR_READ_ONLY] = "MPI_ERR_READ_ONLY: read-only file or file system",
    [MPI_ERR_RMA_CONFLICT] = "MPI_ERR_RMA_CONFLICT: conflicting accesses to window",
    [MPI_ERR_RMA_SYNC] = "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls",
    [MPI_ERR_SERVICE] = "MPI_ERR_SERVICE: invalid service name passed to MPI_UNPUBLISH_NAME",
    [MPI_ERR_SIZE] = "MPI_ERR_SIZE: invalid size argument",
    [MPI_ERR_SPAWN] = "MPI_ERR_SPAWN: error in spawning processes",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "MPI_ERR_UNSUPPORTED_DATAREP: unsupported datarep passed to MPI_FILE_SET_VIEW",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "MPI_ERR_UNSUPPORTED_OPERATION: unsupported operation",
    [MPI_ERR_WIN] = "MPI_ERR_WIN: invalid win argument",
    [MPI_ERR_RMA_RANGE] = "MPI_ERR_RMA_RANGE: target memory is not part of the window",
    [MPI_ERR_RMA_ATTACH] = "MPI_ERR_RMA_ATTACH: memory cannot be attached",
    [MPI_ERR_RMA_SHARED] = "MPI_ERR_RMA_SHARED: memory cannot be shared",
    [MPI_ERR_RMA_FLAVOR] = "MPI_ERR_RMA_FLAVOR: passed window has the wrong flavor for the called function",
    [MPI_ERR_PROC_ABORTED] = "MPI_ERR_PROC_ABORTED: operation failed because a peer process has aborted",
    [MPIX_ERR_PROC_FAILED] = "MPIX_ERR_PROC_FAILED: a process involved in the operation has failed",
    [MPI_ERR_SESSION] = "MPI_ERR_SESSION: invalid session handle",
    [MPIX_ERR_PROC_FAILED_PENDING] = "MPIX_ERR_PROC_FAILED_PENDING: a process that could match this wildcard "
                                     "receive has failed; the request is still pending",
    [MPIX_ERR_REVOKED] = "MPIX_ERR_REVOKED: the communicator was revoked",
    [MPI_T_ERR_MEMORY] = "MPI_T_ERR_MEMORY: out of memory",
    [MPI_T_ERR_NOT_INITIALIZED] = "MPI_T_ERR_NOT_INITIALIZED: the tool information interface is not initialized",
    [MPI_T_ERR_CANNOT_INIT] = "MPI_T_ERR_CANNOT_INIT: the tool information interface cannot be initialized",
    [MPI_T_ERR_INVALID_INDEX] = "MPI_T_ERR_INVALID_INDEX: index invalid or refers to a variable that no longer exists",
    [MPI_T_ERR_INVALID_ITEM] = "MPI_T_ERR_INVALID_ITEM: item index queried is out of range",
    [MPI_T_ERR_INVALID_HANDLE] = "MPI_T_ERR_INVALID_HANDLE: the handle is invalid",
    [MPI_T_ERR_OUT_OF_HANDLES] = "MPI_T_ERR_OUT_OF_HANDLES: no more handles available",
    [MPI_T_ERR_OUT_OF_SESSIONS] = "MPI_T_ERR_OUT_OF_SESSIONS: no more sessions available",
    [MPI_T_ERR_INVALID_SESSION] = "MPI_T_ERR_INVALID_SESSION: session argument is not valid",
    [MPI_T_ERR_CVAR_SET_NOT_NOW] = "MPI_T_ERR_CVAR_SET_NOT_NOW: the control variable cannot be set at this moment",
    [MPI_T_ERR_CVAR_SET_NEVER] = "MPI_T_ERR_CVAR_SET_NEVER: the control variable cannot be set until end of execution",
    [MPI_T_ERR_PVAR_NO_STARTSTOP] = "MPI_T_ERR_PVAR_NO_STARTSTOP: the performance variable cannot be started or stopped",
    [MPI_T_ERR_PVAR_NO_WRITE] = "MPI_T_ERR_PVAR_NO_WRITE: the performance variable cannot be written or reset",
    [MPI_T_ERR_PVAR_NO_ATOMIC] = "MPI_T_ERR_PVAR_NO_ATOMIC: the performance variable cannot be read and written atomically",
    [MPI_T_ERR_INVALID_NAME] = "MPI_T_ERR_INVALID_NAME: no variable or category has that name",
    [MPI_T_ERR_INVALID] = "MPI_T_ERR_INVALID: invalid use of the tool information interface or of its arguments",
};
#define NCLASS_STRINGS ((int)(sizeof class_strings / sizeof class_strings[0]))

/* ---- the last message of each predefined class ----
 *
 * A failing call returns its error class itself (as Open MPI does: codes
 * written for ULFM compare the value with MPIX_ERR_PROC_FAILED), and its
 * message, naming the function and the argument, becomes the string of
 * that class until the next error of the class: MPI_Error_string of the
 * value just returned gives it. */
static char last_msg[MPI_ERR_LASTCODE + 1][MPI_MAX_ERROR_STRING];
/* the I/O thread fails calls too */
static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;

int tide_err(int errclass, const char *fmt, ...)
{
    if (errclass <= MPI_SUCCESS || errclass > MPI_ERR_LASTCODE)
        return errclass;
    char detail[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    const char *cls = tide_error_class_string(errclass);
    /* "MPI_ERR_RANK: invalid rank" -> take the class name */
    size_t nl = strcspn(cls, ":");
    pthread_mutex_lock(&last_lock);
    snprintf(last_msg[errclass], sizeof last_msg[errclass], "%.*s: %.440s", (int)(nl < 60 ? nl : 60), cls, detail);
    pthread_mutex_unlock(&last_lock);
    return errclass;
}

/* ---- user-defined classes and codes ---- */
struct user_code {
    int errclass;
    char *string;
};
static struct user_code *user_codes; /* index: code - MPI_ERR_LASTCODE - 1 */
static int nuser_codes;
static int last_used_code = MPI_ERR_LASTCODE;

int tide_last_used_code(void)
{
    return last_used_code;
}

static struct user_code *user_code(int code)
{
    int i = code - MPI_ERR_LASTCODE - 1;
    if (i < 0 || i >= nuser_codes)
        return NULL;
    return &user_codes[i];
}

int tide_error_class_of(int code)
{
    if (code >= 0 && code <= MPI_ERR_LASTCODE)
        return code;
    struct user_code *u = user_code(code);
    return u ? u->errclass : -1;
}

const char *tide_error_class_string(int errclass)
{
    if (errclass >= 0 && errclass < NCLASS_STRINGS && class_strings[errclass])
        return class_strings[errclass];
    if (errclass > MPI_ERR_LASTCODE && errclass <= TIDE_MAX_ERROR_CLASS) {
        struct user_code *u = user_code(errclass);
        if (u && u->string)
            return u->string;
        return "";
    }
    if (errclass >= 0 && errclass <= MPI_ERR_LASTCODE)
        return "MPI_ERR_UNKNOWN: reserved error class";
    return "MPI_ERR_UNKNOWN: unknown error";
}

int tide_error_message(int code, char *buf, int *len)
{
    const char *s = NULL;
    if (code > MPI_SUCCESS && code <= MPI_ERR_LASTCODE) {
        pthread_mutex_lock(&last_lock);
        snprintf(buf, MPI_MAX_ERROR_STRING, "%s", last_msg[code][0] ? last_msg[code] : tide_error_class_string(code));
        pthread_mutex_unlock(&last_lock);
        *len = (int)strlen(buf);
        return 0;
    }
    if (code == MPI_SUCCESS) {
        s = tide_error_class_string(code);
    } else {
        struct user_code *u = user_code(code);
        if (!u)
            return -1;
        s = u->string ? u->string : "";
    }
    snprintf(buf, MPI_MAX_ERROR_STRING, "%s", s);
    *len = (int)strlen(buf);
    return 0;
}

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    TIDE_API_ENTER();
    if (!string || !resultlen)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Error_string: string and resultlen must not be NULL");
    if (tide_error_message(errorcode, string, resultlen) != 0) {
        string[0] = '\0';
        *resultlen = 0;
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Error_string: %d is not a valid error code (argument errorcode)",
                        errorcode);
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Error_string)

int PMPI_Error_class(int errorcode, int *errorclass)
{
    TIDE_API_ENTER();
    if (!errorclass)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Error_class: errorclass must not be NULL");
    int c = tide_error_class_of(errorcode);
    if (c < 0)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Error_class: %d is not a valid error code (argument errorcode)",
                        errorcode);
    *errorclass = c;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Error_class)

static int new_user_code(int errclass)
{
    if (last_used_code >= TIDE_MAX_ERROR_CLASS)
        return -1;
    struct user_code *nu = realloc(user_codes, (size_t)(nuser_codes + 1) * sizeof *nu);
    if (!nu)
        return -1;
    user_codes = nu;
    int code = MPI_ERR_LASTCODE + 1 + nuser_codes;
    user_codes[nuser_codes].errclass = errclass < 0 ? code : errclass;
    user_codes[nuser_codes].string = NULL;
    nuser_codes++;
    last_used_code = code;
    tide_attr_update_lastusedcode(last_used_code);
    return code;
}

int PMPI_Add_error_class(int *errorclass)
{
    TIDE_API_ENTER();
    if (!errorclass)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Add_error_class: errorclass must not be NULL");
    int c = new_user_code(-1);
    if (c < 0)
        return TIDE_ERR(MPI_ERR_OTHER, "MPI_Add_error_class: too many user error classes and codes");
    *errorclass = c;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Add_error_class)

static int is_class(int c)
{
    if (c >= 0 && c <= MPI_ERR_LASTCODE)
        return 1;
    struct user_code *u = user_code(c);
    return u && u->errclass == c;
}

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    TIDE_API_ENTER();
    if (!errorcode)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Add_error_code: errorcode must not be NULL");
    if (!is_class(errorclass) || errorclass == MPI_SUCCESS)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Add_error_code: %d is not an error class (argument errorclass)",
                        errorclass);
    int c = new_user_code(errorclass);
    if (c < 0)
        return TIDE_ERR(MPI_ERR_OTHER, "MPI_Add_error_code: too many user error classes and codes");
    *errorcode = c;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Add_error_code)

int PMPI_Add_error_string(int errorcode, const char *string)
{
    TIDE_API_ENTER();
    if (!string)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Add_error_string: string must not be NULL");
    if (strlen(string) >= MPI_MAX_ERROR_STRING)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Add_error_string: string is longer than MPI_MAX_ERROR_STRING");
    struct user_code *u = user_code(errorcode);
    if (!u)
        return TIDE_ERR(MPI_ERR_ARG,
                        "MPI_Add_error_string: %d is not a user-defined error code or class "
                        "(argument errorcode)",
                        errorcode);
    char *s = strdup(string);
    if (!s)
        return TIDE_ERR(MPI_ERR_NO_MEM, "MPI_Add_error_string: out of memory");
    free(u->string);
    u->string = s;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Add_error_string)

void tide_errors_finalize(void)
{
    pthread_mutex_lock(&last_lock);
    memset(last_msg, 0, sizeof last_msg);
    pthread_mutex_unlock(&last_lock);
    for (int i = 0; i < nuser_codes; i++)
        free(user_codes[i].string);
    free(user_codes);
    user_codes = NULL;
    nuser_codes = 0;
    last_used_code = MPI_ERR_LASTCODE;
}
