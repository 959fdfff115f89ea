// squeue_steps.cpp - step lines for squeue --steps.
#include "cli/squeue_steps.hpp"

#include "proto/fb_read.hpp"

#include "cli/format_spec.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

constexpr uint32_t kBatch = 0xfffffffbu, kExtern = 0xfffffffcu, kNoVal = 0xfffffffeu;

const char *header_of(char c) {
    switch (c) {
    case 'i':
        return "STEPID";
    case 'j':
        return "NAME";
    case 'P':
        return "PARTITION";
    case 'u':
        return "USER";
    case 'U':
        return "UID";
    case 'M':
        return "TIME";
    case 'l':
        return "TIME_LIMIT";
    case 'S':
        return "START_TIME";
    case 'N':
        return "NODELIST";
    case 'A':
        return "TASKS";
    case 'b':
        return "TRES_PER_NODE";
    default:
        return nullptr;
    }
}

using proto::str;

} // namespace

std::string step_id_text(const proto::StepInfo &st) {
    std::string job =
        st.array_job_id() && st.array_task_id() != kNoVal
            ? std::to_string(st.array_job_id()) + "_" + std::to_string(st.array_task_id())
            : std::to_string(st.job_id());
    if (st.step_id() == kBatch) return job + ".batch";
    if (st.step_id() == kExtern) return job + ".extern";
    return job + "." + std::to_string(st.step_id());
}

std::string render_steps(std::string_view fmt, const std::vector<const proto::StepInfo *> &steps,
                         int64_t now, bool noheader) {
    FormatSpec spec = parse_percent_format(fmt);
    for (const auto &f : spec.fields)
        if (!header_of(f.type))
            throw ParseError("Invalid job format specification: " + std::string(1, f.type));
    std::string out;
    if (!noheader)
        out += render_line(spec, [](const FieldSpec &f) { return FieldValue{header_of(f.type)}; }) +
               "\n";
    for (const auto *st : steps) {
        out += render_line(
                   spec,
                   [&](const FieldSpec &f) -> FieldValue {
                       switch (f.type) {
                       case 'i':
                           return {step_id_text(*st)};
                       case 'j':
                           return {str(st->name())};
                       case 'P':
                           return {str(st->partition())};
                       case 'u':
                           return {str(st->user_name())};
                       case 'U':
                           return {std::to_string(st->user_id())};
                       case 'M':
                           return {format_elapsed(st->start_time() ? now - st->start_time() : 0)};
                       case 'l':
                           return {format_time_limit(st->time_limit_min())};
                       case 'S':
                           return {format_timestamp(st->start_time())};
                       case 'N':
                           return {str(st->node_list()), false};
                       case 'A':
                           return {std::to_string(st->num_tasks())};
                       case 'b':
                           return {st->gres() && st->gres()->size() ? str(st->gres()) : "N/A"};
                       default:
                           return {};
                       }
                   }) +
               "\n";
    }
    return out;
}

} // namespace drover::cli
