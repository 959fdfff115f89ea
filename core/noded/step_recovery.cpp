// step_recovery.cpp - steps' spool records, and steps found again after a droverd restart.
#include "noded/step_recovery.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace drover::noded {

std::string step_spool_dir(const Config &conf, const std::string &node, uint32_t job_id,
                           uint32_t step_id) {
    return (std::filesystem::path(node_spool(conf, node)) /
            ("step" + std::to_string(job_id) + "." + std::to_string(step_id)))
        .string();
}

int create_step_spool(const std::string &dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        errno = ec.value();
        return -1;
    }
    return ::open((dir + "/records").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
                  0600);
}

bool save_spooled_step(const std::string &dir, const SpooledStep &step) {
    std::string task_list;
    for (uint32_t t : step.tasks) task_list += (task_list.empty() ? "" : ",") + std::to_string(t);
    Fields fields{{"job", std::to_string(step.job_id)},
                  {"step", std::to_string(step.step_id)},
                  {"cont", std::to_string(step.cont)},
                  {"uid", std::to_string(step.uid)},
                  {"gid", std::to_string(step.gid)},
                  {"user", step.user},
                  {"tasks", task_list}};
    put_process(fields, step.shepherd);
    return save_fields(dir + "/step", fields);
}

std::vector<ShepherdRecord> new_records(const std::string &dir, std::size_t *seen) {
    auto records = read_records(dir + "/records");
    std::vector<ShepherdRecord> fresh;
    if (records.size() > *seen)
        fresh.assign(records.begin() + std::ptrdiff_t(*seen), records.end());
    *seen = std::max(*seen, records.size());
    return fresh;
}

namespace {

SpooledStep read_spooled_step(Fields &f) {
    SpooledStep s;
    s.job_id = uint32_t(field_u64(f, "job"));
    s.step_id = uint32_t(field_u64(f, "step"));
    s.uid = uint32_t(field_u64(f, "uid"));
    s.gid = uint32_t(field_u64(f, "gid"));
    s.user = f["user"];
    std::string tasks = f["tasks"];
    for (std::size_t at = 0; at < tasks.size();) {
        std::size_t comma = std::min(tasks.find(',', at), tasks.size());
        s.tasks.push_back(
            uint32_t(std::strtoul(tasks.substr(at, comma - at).c_str(), nullptr, 10)));
        at = comma + 1;
    }
    s.cont = field_u64(f, "cont");
    s.shepherd = get_process(f);
    return s;
}

} // namespace

void recover_steps(boost::asio::io_context &io, const Config &conf, const std::string &node,
                   const Tell &tell, Reaper &reaper, const StepAdoption &adoption) {
    for (const std::string &dir : spool_entries(node_spool(conf, node), "step")) {
        Fields f = load_fields(dir + "/step");
        SpooledStep step = read_spooled_step(f);
        std::string label = std::to_string(step.job_id) + "." + std::to_string(step.step_id);
        std::error_code ec;
        if (f.empty() || !step.job_id) {
            // Never let go (droverd died during the launch): nothing of it ran.
            std::filesystem::remove_all(dir, ec);
            continue;
        }
        adoption.found(step.job_id, step.step_id);
        if (auto msg = kept_report(dir)) {
            spdlog::info("step {}: its end is reported again (from {})", label, dir);
            send_kept_report(tell, dir, std::move(*msg), "step " + label, {}, true);
            continue;
        }
        std::function<void()> gone = adoption.adopt(step, dir);
        if (still_running(step.shepherd)) {
            spdlog::info("step {}: still runs (shepherd pid {}); watching it again", label,
                         step.shepherd.pid);
            reaper.watch_adopted(step.shepherd.pid, [gone](int, const struct rusage &) { gone(); });
        } else {
            spdlog::info("step {}: ended while droverd was away", label);
            boost::asio::post(io, gone);
        }
    }
}

} // namespace drover::noded
