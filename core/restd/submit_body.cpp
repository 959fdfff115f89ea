// submit_body.cpp - job_desc_msg fields to sbatch options.
#include "restd/submit_body.hpp"

#include <functional>
#include <map>

#include "common/json_value.hpp"

namespace drover::restd {

namespace {

using json::Value;

[[noreturn]] void bad(const std::string &field, const std::string &what) {
    throw BadRequest(field + ": " + what);
}

} // namespace

std::string field_text(const Value &v, const std::string &field) {
    if (!v.is_string()) bad(field, "expected a string, got " + std::string(v.kind_name()));
    return v.as_string();
}

// An integer, or slurmrestd's {"number": N, "set": true, "infinite": false}; nullopt when unset
// ("set": false) or infinite.
std::optional<int64_t> field_number(const Value &v, const std::string &field) {
    if (v.is_object()) {
        const Value *set = v.find("set"), *inf = v.find("infinite"), *n = v.find("number");
        if ((set && set->is_bool() && !set->as_bool()) || (inf && inf->is_bool() && inf->as_bool()))
            return std::nullopt;
        if (!n) bad(field, "expected {\"number\": ...}");
        return field_number(*n, field + ".number");
    }
    if (!v.is_number() || !v.as_int())
        bad(field, "expected an integer, got " + std::string(v.kind_name()));
    return *v.as_int();
}

bool field_flag(const Value &v, const std::string &field) {
    if (!v.is_bool()) bad(field, "expected true or false, got " + std::string(v.kind_name()));
    return v.as_bool();
}

json::Value parse_body(std::string_view text) {
    try {
        return json::parse(text);
    } catch (const json::ParseError &e) {
        throw BadRequest(std::string("body: ") + e.what());
    }
}

namespace {

std::vector<std::string> strings_of(const Value &v, const std::string &field) {
    if (!v.is_array()) bad(field, "expected an array of strings");
    std::vector<std::string> out;
    for (const Value &i : v.items()) out.push_back(field_text(i, field + "[]"));
    return out;
}

// "environment": ["K=V", ...] (or an object {"K": "V"} as older clients send).
cli::Env environment_of(const Value &v, const std::string &field) {
    cli::Env env;
    if (v.is_object()) {
        for (const auto &[k, val] : v.members())
            env.emplace_back(k, field_text(val, field + "." + k));
        return env;
    }
    for (const std::string &kv : strings_of(v, field)) {
        std::size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) bad(field, "'" + kv + "' is not NAME=value");
        env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    return env;
}

using FieldFn = std::function<void(SubmitBody &, const Value &, const std::string &)>;

// A text field that is an sbatch option.
FieldFn text_option(const char *option) {
    return [option](SubmitBody &b, const Value &v, const std::string &f) {
        b.options.push_back(std::string(option) + "=" + field_text(v, f));
    };
}

// A number field that is an sbatch option (unset: not given).
FieldFn number_option(const char *option) {
    return [option](SubmitBody &b, const Value &v, const std::string &f) {
        if (auto n = field_number(v, f))
            b.options.push_back(std::string(option) + "=" + std::to_string(*n));
    };
}

// A field slurmrestd takes that Drover accepts without acting on it yet.
FieldFn noted() {
    return [](SubmitBody &b, const Value &, const std::string &f) {
        b.warnings.push_back(f + " is accepted and ignored");
    };
}

const std::map<std::string, FieldFn> &job_fields() {
    static const std::map<std::string, FieldFn> fields = {
        {"name", text_option("--job-name")},
        {"partition", text_option("--partition")},
        {"account", text_option("--account")},
        {"qos", text_option("--qos")},
        {"comment", text_option("--comment")},
        {"reservation", text_option("--reservation")},
        {"dependency", text_option("--dependency")},
        {"array", text_option("--array")},
        {"constraints", text_option("--constraint")},
        {"licenses", text_option("--licenses")},
        {"nodes", text_option("--nodes")},
        {"standard_output", text_option("--output")},
        {"standard_error", text_option("--error")},
        {"standard_input", text_option("--input")},
        {"tres_per_node", text_option("--gres")},
        {"cpus_per_task", number_option("--cpus-per-task")},
        {"tasks", number_option("--ntasks")},
        {"tasks_per_node", number_option("--ntasks-per-node")},
        {"minimum_nodes", number_option("--nodes")},
        {"memory_per_node", number_option("--mem")},
        {"memory_per_cpu", number_option("--mem-per-cpu")},
        {"time_limit", number_option("--time")},
        {"time_minimum", number_option("--time-min")},
        {"nice", number_option("--nice")},
        {"hold",
         [](SubmitBody &b, const Value &v, const std::string &f) {
             if (field_flag(v, f)) b.options.push_back("--hold");
         }},
        {"requeue",
         [](SubmitBody &b, const Value &v, const std::string &f) {
             b.options.push_back(field_flag(v, f) ? "--requeue" : "--no-requeue");
         }},
        {"current_working_directory",
         [](SubmitBody &b, const Value &v, const std::string &f) {
             b.cwd = field_text(v, f);
             b.options.push_back("--chdir=" + b.cwd);
         }},
        {"environment", [](SubmitBody &b, const Value &v,
                           const std::string &f) { b.environment = environment_of(v, f); }},
        {"argv",
         [](SubmitBody &b, const Value &v, const std::string &f) { b.argv = strings_of(v, f); }},
        {"script",
         [](SubmitBody &b, const Value &v, const std::string &f) { b.script = field_text(v, f); }},
        {"mail_type", noted()},
        {"mail_user", noted()},
        {"exclusive", noted()},
        {"wckey", noted()},
    };
    return fields;
}

} // namespace

SubmitBody parse_submit_body(std::string_view text, bool script_required) {
    Value doc = parse_body(text);
    if (!doc.is_object()) throw BadRequest("body: expected an object");
    SubmitBody b;
    const Value *job = nullptr, *jobs = nullptr;
    for (const auto &[key, v] : doc.members()) {
        if (key == "script")
            b.script = field_text(v, "script");
        else if (key == "job")
            job = &v;
        else if (key == "jobs")
            jobs = &v;
        else
            bad(key, "unknown field");
    }
    // "jobs": a heterogeneous job, one object per component (the first one's script and
    // environment are the job's).
    if (jobs && (!jobs->is_array() || jobs->items().empty())) bad("jobs", "expected an array");
    if (jobs && job) bad("jobs", "give either job or jobs");
    const std::size_t count = jobs ? jobs->items().size() : 1;
    for (std::size_t k = 0; k < count; ++k) {
        const Value *one = jobs ? &jobs->items()[k] : job;
        const std::string where = jobs ? "jobs[" + std::to_string(k) + "]" : "job";
        if (!one || !one->is_object()) bad(where, "expected an object");
        SubmitBody part;
        SubmitBody &into = k == 0 ? b : part;
        for (const auto &[key, v] : one->members()) {
            auto it = job_fields().find(key);
            if (it == job_fields().end()) bad(where + "." + key, "unknown field");
            it->second(into, v, where + "." + key);
        }
        if (k > 0) b.het_options.push_back(std::move(part.options));
    }
    if (script_required && b.script.empty()) bad("script", "a batch script is required");
    return b;
}

} // namespace drover::restd
