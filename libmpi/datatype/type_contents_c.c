/*
 * type_contents_c.c: MPI_Type_get_envelope_c and MPI_Type_get_contents_c
 * (MPI-4.0 section 5.1.13): every type decodes through them; the large
 * counts are those a large-count constructor was given (none for types
 * made by the int constructors, whose arguments stay integers and
 * addresses).
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <string.h>

static struct tide_datatype *get(const char *fn, MPI_Datatype h, int *rc)
{
    struct tide_datatype *dt = tide_datatype_get(h);
    if (!dt)
        *rc = TIDE_ERR(MPI_ERR_TYPE, "%s: %s (argument datatype)", fn,
                       h == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL is not a datatype" : "invalid datatype");
    return dt;
}

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                             MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_get_envelope_c";
    int rc;
    struct tide_datatype *dt = get(fn, datatype, &rc);
    if (!dt)
        return rc;
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes || !combiner)
        return TIDE_ERR(MPI_ERR_ARG,
                        "%s: num_integers, num_addresses, num_large_counts, num_datatypes and combiner must not be NULL",
                        fn);
    *combiner = dt->combiner;
    bool named = dt->combiner == MPI_COMBINER_NAMED;
    *num_integers = named ? 0 : dt->ni;
    *num_addresses = named ? 0 : dt->na;
    *num_large_counts = named ? 0 : (MPI_Count)dt->nc;
    *num_datatypes = named ? 0 : dt->nd;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_envelope_c)

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_get_contents_c";
    int rc;
    struct tide_datatype *dt = get(fn, datatype, &rc);
    if (!dt)
        return rc;
    if (dt->combiner == MPI_COMBINER_NAMED)
        return TIDE_ERR(MPI_ERR_TYPE, "%s: %s is a named predefined datatype, which has no contents (argument datatype)",
                        fn, dt->name);
    if (max_integers < dt->ni)
        return TIDE_ERR(MPI_ERR_ARG, "%s: max_integers is %lld but the type has %d integers (argument max_integers)",
                        fn, max_integers, dt->ni);
    if (max_addresses < dt->na)
        return TIDE_ERR(MPI_ERR_ARG, "%s: max_addresses is %lld but the type has %d addresses (argument max_addresses)",
                        fn, max_addresses, dt->na);
    if (max_large_counts < (MPI_Count)dt->nc)
        return TIDE_ERR(MPI_ERR_ARG,
                        "%s: max_large_counts is %lld but the type has %zu large counts (argument max_large_counts)", fn,
                        max_large_counts, dt->nc);
    if (max_datatypes < dt->nd)
        return TIDE_ERR(MPI_ERR_ARG, "%s: max_datatypes is %lld but the type has %d datatypes (argument max_datatypes)",
                        fn, max_datatypes, dt->nd);
    if ((dt->ni && !array_of_integers) || (dt->na && !array_of_addresses) || (dt->nc && !array_of_large_counts) ||
        (dt->nd && !array_of_datatypes))
        return TIDE_ERR(MPI_ERR_ARG, "%s: an output array is NULL", fn);
    if (dt->ni)
        memcpy(array_of_integers, dt->ints, (size_t)dt->ni * sizeof(int));
    if (dt->na)
        memcpy(array_of_addresses, dt->addrs, (size_t)dt->na * sizeof(MPI_Aint));
    if (dt->nc)
        memcpy(array_of_large_counts, dt->counts, dt->nc * sizeof(MPI_Count));
    for (int i = 0; i < dt->nd; i++) {
        array_of_datatypes[i] = dt->types[i];
        tide_dt_user_retain(dt->olds[i]);
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_get_contents_c)
