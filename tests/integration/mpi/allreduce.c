/* allreduce.c - mpi_pmi2_test: MPI_Allreduce(MPI_SUM) of rank+1 over MPI_COMM_WORLD. Rank 0
 * prints "sum S of N ranks"; every rank exits 1 (after a message on stderr) unless S is
 * N*(N+1)/2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size, mine, sum = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("sum %d of %d ranks\n", sum, size);
        fflush(stdout);
    }
    if (sum != size * (size + 1) / 2) {
        fprintf(stderr, "rank %d: sum %d, expected %d\n", rank, sum, size * (size + 1) / 2);
        return 1; /* no MPI_Finalize: the step fails */
    }
    MPI_Finalize();
    return 0;
}
