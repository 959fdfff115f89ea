/* ring.c - mpi_pmi2_test: a token starts at 0 on rank 0 and goes round 0 -> 1 -> ... -> N-1 -> 0,
 * each rank adding its rank; rank 0 prints "ring N ranks token T" (T = N*(N-1)/2). Point-to-point
 * messages between every pair of neighbours, so between ranks on different nodes too. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size, token = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (rank == 0) {
        if (size > 1) {
            MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        printf("ring %d ranks token %d\n", size, token);
        fflush(stdout);
    } else {
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token += rank;
        MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
