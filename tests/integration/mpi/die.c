/* die.c - mpi_pmi2_test: a rank that fails. With N > 1, rank 1 exits with code 3 right after
 * MPI_Init without MPI_Finalize (with argv[1] "abort": calls MPI_Abort(MPI_COMM_WORLD, 7)
 * instead); every other rank blocks in MPI_Barrier, so only the launcher can end the job. Each
 * rank prints "rank R ready" after MPI_Init, so that a test can see they all got that far. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("rank %d ready\n", rank);
    fflush(stdout);
    if (rank == 1 && size > 1) {
        if (argc > 1 && strcmp(argv[1], "abort") == 0) MPI_Abort(MPI_COMM_WORLD, 7);
        exit(3);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
