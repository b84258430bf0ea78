# suite_docs.sh: the documentation that is generated from the sources is
# current (docs/STATUS.md says which MPI functions exist).

tcase docs.status-current -t 30 -- sh "$S/tools/gen-status.sh" --check

# every function mpi.h declares is defined in libmpi.so (a binding that
# names one must load)
tcase docs.symbols-defined -t 60 -out "all defined" -- sh "$S/tests/check-symbols.sh" "$B" "$S"
tcase docs.manpages -t 60 -out "check-manpages: ok" -- sh "$S/tests/check-manpages.sh" "$B" "$S"
