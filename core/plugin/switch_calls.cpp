// switch_calls.cpp - SwitchCalls: NULL checks, the environment callback and Status.
#include "plugin/switch_calls.hpp"

namespace drover::plugin {

Status SwitchCalls::job_init(uint32_t job_id, std::string_view node_list,
                             const EnvAdd &env_add) const {
    if (!ops().job_init) return {};
    // The C callback gets env_add back through its void* argument.
    auto add = [](void *arg, drover_str name, drover_str value) {
        (*static_cast<const EnvAdd *>(arg))({name.ptr, name.len}, {value.ptr, value.len});
    };
    drover_error err{};
    const auto timing = timed("job_init");
    int rc = ops().job_init(state(), job_id, {node_list.data(), node_list.size()}, add,
                            const_cast<EnvAdd *>(&env_add), &err);
    return status(rc, err, "job_init");
}

Status SwitchCalls::job_fini(uint32_t job_id) const {
    if (!ops().job_fini) return {};
    drover_error err{};
    const auto timing = timed("job_fini");
    return status(ops().job_fini(state(), job_id, &err), err, "job_fini");
}

} // namespace drover::plugin
