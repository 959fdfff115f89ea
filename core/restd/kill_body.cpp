// kill_body.cpp - DELETE /jobs's body, read as scancel's request.
#include "restd/kill_body.hpp"

#include "cli/job_states.hpp"
#include "cli/scancel_args.hpp"
#include "restd/submit_body.hpp"

namespace drover::restd {

namespace {

using json::Value;

[[noreturn]] void bad(const std::string &field, const std::string &what) {
    throw BadRequest(field + ": " + what);
}

// A list slurmrestd takes as an array or one value; numbers as their text ("jobs": [12]).
std::vector<std::string> texts_of(const Value &v, const std::string &field) {
    std::vector<std::string> out;
    auto one = [&](const Value &i) {
        if (i.is_number() && i.as_int())
            out.push_back(std::to_string(*i.as_int()));
        else
            out.push_back(field_text(i, field));
    };
    if (v.is_array())
        for (const Value &i : v.items()) one(i);
    else
        one(v);
    return out;
}

void read_signal(KillBody &k, const Value &v) {
    if (v.is_number() && v.as_int() && *v.as_int() >= 0 && *v.as_int() <= 64) {
        k.signal = int(*v.as_int());
        return;
    }
    const std::string name = field_text(v, "signal");
    auto sig = cli::parse_signal(name);
    if (!sig) bad("signal", "unknown signal " + name);
    k.signal = *sig;
}

void read_flags(KillBody &k, const Value &v) {
    for (const std::string &flag : texts_of(v, "flags")) {
        if (flag == "BATCH_JOB")
            k.batch_only = true;
        else if (flag == "FULL_JOB")
            k.full = true;
        else if (flag != "FULL_STEPS_ONLY" && flag != "HURRY" && flag != "NO_SIBLING_JOBS" &&
                 flag != "CRON_JOBS" && flag != "ARRAY_TASK" && flag != "VERBOSE")
            bad("flags", "unknown flag " + flag);
    }
}

} // namespace

KillBody parse_kill_body(std::string_view text) {
    Value doc = parse_body(text);
    if (!doc.is_object()) throw BadRequest("body: expected an object");
    KillBody k;
    for (const auto &[key, v] : doc.members()) {
        if (key == "jobs")
            k.jobs = texts_of(v, "jobs");
        else if (key == "signal")
            read_signal(k, v);
        else if (key == "flags")
            read_flags(k, v);
        else if (key == "job_name")
            k.job_name = field_text(v, key);
        else if (key == "partition")
            k.partition = field_text(v, key);
        else if (key == "user_name")
            k.user_name = field_text(v, key);
        else if (key == "job_state")
            for (const std::string &s : texts_of(v, key)) {
                auto state = cli::parse_job_state(s);
                if (!state) bad(key, "unknown job state " + s);
                k.states.push_back(*state);
            }
        else
            bad(key, "unknown field");
    }
    if (k.jobs.empty() && k.job_name.empty() && k.partition.empty() && k.user_name.empty() &&
        k.states.empty())
        bad("jobs", "no job and no filter given");
    return k;
}

} // namespace drover::restd
