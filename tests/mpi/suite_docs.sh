# suite_docs.sh: the documentation that is generated from the sources is
# current (docs/STATUS.md says which MPI functions exist).

tcase docs.status-current -t 30 -- sh "$S/tools/gen-status.sh" --check
