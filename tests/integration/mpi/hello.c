/* hello.c - mpi_pmi2_test: each rank prints "rank R of N on HOST node NODENAME" once.
 * HOST is gethostname() (the same for every node a droverd emulates); NODENAME is the task's
 * SLURMD_NODENAME ("-" when unset, as under mpiexec). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int rank, size;
    char host[256] = "?";
    const char *node = getenv("SLURMD_NODENAME");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    gethostname(host, sizeof host - 1);
    printf("rank %d of %d on %s node %s\n", rank, size, host, node ? node : "-");
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
