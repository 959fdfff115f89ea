// resume_file.cpp - SLURM_RESUME_FILE's JSON.
#include "ctld/power/resume_file.hpp"

#include "common/json_writer.hpp"

namespace drover::ctld {

std::string resume_file_json(const std::string &all_nodes, const std::vector<ResumeJob> &jobs) {
    JsonWriter w;
    auto text_or_null = [&w](std::string_view key, const std::string &s) {
        if (s.empty())
            w.key(key).null();
        else
            w.kv(key, s);
    };
    w.begin_object().kv("all_nodes_resume", all_nodes).key("jobs").begin_array();
    for (const ResumeJob &j : jobs) {
        w.begin_object();
        text_or_null("extra", j.extra);
        text_or_null("features", j.features);
        w.kv_unum("job_id", j.job_id)
            .kv("nodes_alloc", j.nodes_alloc)
            .kv("nodes_resume", j.nodes_resume)
            .kv("oversubscribe", j.oversubscribe)
            .kv("partition", j.partition);
        text_or_null("reservation", j.reservation);
        w.end_object();
    }
    w.end_array().end_object();
    return w.finish();
}

} // namespace drover::ctld
