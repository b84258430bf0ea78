// hello.cc: the C++ program of the toolchain tests' small projects.
#include <mpi.h>
#include <iostream>
#include <vector>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<int> all(static_cast<size_t>(size));
    MPI_Allgather(&rank, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int sum = 0;
    for (int v : all)
        sum += v;
    if (rank == 0)
        std::cout << "proj-cxx: " << size << " ranks, sum " << sum << std::endl;
    MPI_Finalize();
    return 0;
}
