/*
 * type_contents.c: decoding a datatype (MPI_Type_get_envelope,
 * MPI_Type_get_contents) as MPI-2.2 section 4.1.13 specifies: the
 * combiner and the exact arguments of the call that made the type. Derived
 * types returned by get_contents are new references the caller frees with
 * MPI_Type_free; predefined ones are returned as they are. A type made by
 * a large-count constructor is decoded by the _c forms only
 * (type_contents_c.c).
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <string.h>

#define TYPE_OR_FAIL(fn, h, dt)                                                                \
    struct tide_datatype *dt = tide_datatype_get(h);                                           \
    if (!dt) {                                                                                 \
        if ((h) == MPI_DATATYPE_NULL)                                                          \
            return TIDE_ERR(MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument datatype)", fn); \
        return TIDE_ERR(MPI_ERR_TYPE, "%s: invalid datatype (argument datatype)", fn);        \
    }

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_get_envelope";
    TYPE_OR_FAIL(fn, datatype, dt);
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
        return TIDE_ERR(MPI_ERR_ARG, "%s: num_integers, num_addresses, num_datatypes and combiner must not be NULL", fn);
    if (dt->nc)
        return TIDE_ERR(MPI_ERR_TYPE, "%s: the datatype was made by a large-count constructor; "
                                      "MPI_Type_get_envelope_c decodes it (argument datatype)", fn);
    *combiner = dt->combiner;
    if (dt->combiner == MPI_COMBINER_NAMED) {
        *num_integers = *num_addresses = *num_datatypes = 0;
        return MPI_SUCCESS;
    }
    *num_integers = dt->ni;
    *num_addresses = dt->na;
    *num_datatypes = dt->nd;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_envelope)

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                           int array_of_integers[], MPI_Aint array_of_addresses[],
                           MPI_Datatype array_of_datatypes[])
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_get_contents";
    TYPE_OR_FAIL(fn, datatype, dt);
    if (dt->combiner == MPI_COMBINER_NAMED)
        return TIDE_ERR(MPI_ERR_TYPE, "%s: %s is a named predefined datatype, which has no contents (argument datatype)",
                        fn, dt->name);
    if (dt->nc)
        return TIDE_ERR(MPI_ERR_TYPE, "%s: the datatype was made by a large-count constructor; "
                                      "MPI_Type_get_contents_c decodes it (argument datatype)", fn);
    if (max_integers < dt->ni)
        return TIDE_ERR(MPI_ERR_ARG, "%s: max_integers is %d but the type has %d integers (argument max_integers)",
                        fn, max_integers, dt->ni);
    if (max_addresses < dt->na)
        return TIDE_ERR(MPI_ERR_ARG, "%s: max_addresses is %d but the type has %d addresses (argument max_addresses)",
                        fn, max_addresses, dt->na);
    if (max_datatypes < dt->nd)
        return TIDE_ERR(MPI_ERR_ARG, "%s: max_datatypes is %d but the type has %d datatypes (argument max_datatypes)",
                        fn, max_datatypes, dt->nd);
    if ((dt->ni && !array_of_integers) || (dt->na && !array_of_addresses) || (dt->nd && !array_of_datatypes))
        return TIDE_ERR(MPI_ERR_ARG, "%s: an output array is NULL", fn);
    if (dt->ni)
        memcpy(array_of_integers, dt->ints, (size_t)dt->ni * sizeof(int));
    if (dt->na)
        memcpy(array_of_addresses, dt->addrs, (size_t)dt->na * sizeof(MPI_Aint));
    for (int i = 0; i < dt->nd; i++) {
        array_of_datatypes[i] = dt->types[i];
        tide_dt_user_retain(dt->olds[i]);
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_contents)
