/* stub_select.h - do-nothing select operations shared by the test plugins in this folder. */
#ifndef DROVER_TEST_STUB_SELECT_H
#define DROVER_TEST_STUB_SELECT_H

#include <stddef.h>

#include <drover/select.h>

#define STUB_UNUSED __attribute__((unused))

STUB_UNUSED static int stub_node_init(void *state, const drover_node_view *nodes, uint32_t count,
                                      drover_error *err) {
    return DROVER_OK;
}

/* Answers EBUSY so that a test can tell this op from the others through the bound table. */
STUB_UNUSED static int stub_job_test(void *state, const drover_job_view *job,
                                     drover_bitmap_view usable, int mode, drover_bitmap *picked,
                                     drover_error *err) {
    return DROVER_EBUSY;
}

STUB_UNUSED static int stub_job_begin(void *state, const drover_job_view *job,
                                      drover_bitmap_view nodes, drover_error *err) {
    return DROVER_OK;
}

STUB_UNUSED static int stub_job_fini(void *state, const drover_job_view *job, drover_error *err) {
    return DROVER_OK;
}

/* Answers 7 for the same reason. */
STUB_UNUSED static uint32_t stub_job_cpus_on_node(void *state, uint32_t job_id, uint32_t node) {
    return 7;
}

#define STUB_SELECT_OPS                                                                            \
    {                                                                                              \
        .struct_size = sizeof(drover_select_ops), .node_init = stub_node_init,                     \
        .job_test = stub_job_test, .job_begin = stub_job_begin, .job_fini = stub_job_fini,         \
        .job_cpus_on_node = stub_job_cpus_on_node,                                                 \
    }

/* A descriptor for select/<name> with the current ABI, the given init and ops. */
#define STUB_DESC(NAME, INIT, OPS)                                                                 \
    {                                                                                              \
        .struct_size = sizeof(drover_plugin_desc), .abi_major = DROVER_ABI_MAJOR,                  \
        .abi_minor = DROVER_ABI_MINOR, .type = "select", .name = (NAME), .version = "test",        \
        .init = (INIT), .fini = NULL, .ops = (OPS),                                                \
    }

#endif
