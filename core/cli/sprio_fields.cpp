// sprio_fields.cpp - sprio's format letters, their headers and values, the default formats, the
// -S order and the report text.
#include "cli/sprio_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

// Every -o letter with its header, in the order --helpformat lists them.
struct Letter {
    char c;
    const char *header;
};

constexpr Letter kLetters[] = {
    {'a', "AGE"},      {'A', "AGE"},       {'b', "ASSOC"},     {'B', "ASSOC"},
    {'c', "CLUSTER"},  {'f', "FAIRSHARE"}, {'F', "FAIRSHARE"}, {'i', "JOBID"},
    {'j', "JOBSIZE"},  {'J', "JOBSIZE"},   {'n', "QOSNAME"},   {'N', "NICE"},
    {'o', "ACCOUNT"},  {'p', "PARTITION"}, {'P', "PARTITION"}, {'r', "PARTITION"},
    {'S', "SITE"},     {'q', "QOS"},       {'Q', "QOS"},       {'u', "USER"},
    {'y', "PRIORITY"}, {'Y', "PRIORITY"},  {'t', "TRES"},      {'T', "TRES"},
};

// The weighted factors: the letter of the normalised value, of the weighted one, and the member.
struct Factor {
    char normalized, weighted;
    double SprioFactors::*member;
};

constexpr Factor kFactors[] = {
    {'a', 'A', &SprioFactors::age},       {'b', 'B', &SprioFactors::assoc},
    {'f', 'F', &SprioFactors::fairshare}, {'j', 'J', &SprioFactors::job_size},
    {'p', 'P', &SprioFactors::partition}, {'q', 'Q', &SprioFactors::qos},
};

// The letters -S sorts by (Slurm's sort has no assoc or site key).
constexpr std::string_view kSortLetters = "ciNnoruAaFfJjPpQqTtYy";

constexpr const char *kWeightedLong =
    "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10n %.10Q %.11N %.20T";
constexpr const char *kNormalizedLong =
    "%.15i %9r %.8u %.8o %10y %10a %10b %10f %10j %10p %10n %10q %20t";

// Slurm's normalised priority is the priority over the largest one (2^32 - 1).
constexpr double kMaxPriority = 4294967295.0;

const Letter *letter_of(char c) {
    for (const auto &l : kLetters)
        if (l.c == c) return &l;
    return nullptr;
}

const Factor *factor_of(char c) {
    for (const auto &f : kFactors)
        if (f.normalized == c || f.weighted == c) return &f;
    return nullptr;
}

std::string number(const char *fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

// A weighted value or weight: rounded to a whole number.
std::string whole(double v) {
    return number("%.0f", v);
}

// A normalised factor: seven decimals.
std::string normal(double v) {
    return number("%.7f", v);
}

double tres_weight(const SprioFactors &weights, std::string_view name) {
    for (const auto &t : weights.tres)
        if (t.name == name) return t.value;
    return 0;
}

// "cpu=500,mem=250" (weighted) or "cpu=0.50,mem=0.25" (normalised): the TRES that add something.
std::string tres_text(const SprioFactors &f, const SprioFactors &weights, bool normalized) {
    std::string out;
    for (const auto &t : f.tres) {
        double weighted = t.value * tres_weight(weights, t.name);
        if (weighted == 0) continue;
        if (!out.empty()) out += ",";
        out += t.name + "=" + (normalized ? number("%.2f", t.value) : whole(weighted));
    }
    return out;
}

// The -w line: each factor's weight; site's weight is 1; TRES weights as "cpu=1000,mem=2000".
std::string weights_value(char c, const SprioFactors &w) {
    if (const Factor *f = factor_of(c)) return whole(w.*(f->member));
    switch (c) {
    case 'i':
        return "Weights";
    case 'S':
        return "1";
    case 'T': {
        std::string out;
        for (const auto &t : w.tres)
            out += (out.empty() ? "" : ",") + t.name + "=" + whole(t.value);
        return out;
    }
    default:
        return "";
    }
}

// A job whose priority was set by hand: no factors, the priority as it is. Slurm prints that
// priority itself where the normalised priority would be.
std::string direct_value(char c, const SprioJob &j) {
    switch (c) {
    case 'y':
        return number("%16.14f", j.priority);
    case 'Y':
        return str_u(j.priority);
    case 't':
    case 'T':
        return "";
    default:
        return "0";
    }
}

std::string factor_value(char c, const SprioJob &j, const SprioFactors &w) {
    if (!j.factors) return direct_value(c, j);
    const SprioFactors &f = *j.factors;
    if (const Factor *d = factor_of(c)) {
        double weight = w.*(d->member);
        if (c == d->normalized) return normal(weight != 0 ? f.*(d->member) : 0);
        return whole(f.*(d->member) * weight);
    }
    switch (c) {
    case 'N':
        return str_i(f.nice);
    case 'S':
        return str_i(f.site);
    case 'y':
        return number("%16.14f", sprio_priority(j, w) / kMaxPriority);
    case 'Y':
        return str_i(static_cast<int64_t>(sprio_priority(j, w)));
    case 't':
        return tres_text(f, w, true);
    case 'T':
        return tres_text(f, w, false);
    default:
        return "";
    }
}

std::string job_value(char c, const SprioJob &j, const SprioFactors &w) {
    switch (c) {
    case 'c': // the cluster is named only in a federation
        return j.cluster.empty() ? "(null)" : j.cluster;
    case 'i':
        return str_u(j.job_id);
    case 'n':
        return or_null(j.qos);
    case 'o':
        return or_null(j.account);
    case 'r':
        return or_null(j.partition);
    case 'u':
        return j.user;
    default:
        return factor_value(c, j, w);
    }
}

// A factor's weighted value for sorting; 0 for a priority set by hand.
double weighted(const SprioJob &j, double SprioFactors::*m, const SprioFactors &w) {
    return j.factors ? (*j.factors).*m * w.*m : 0;
}

double tres_sum(const SprioJob &j, const SprioFactors &w) {
    double sum = 0;
    if (j.factors)
        for (const auto &t : j.factors->tres) sum += t.value * tres_weight(w, t.name);
    return sum;
}

template <class T>
int three_way(const T &a, const T &b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

// Values closer than Slurm's fuzzy_equal epsilon sort as equal.
int compare_double(double a, double b) {
    if (std::fabs(a - b) < 0.00001) return 0;
    return a < b ? -1 : 1;
}

int compare_by(char c, const SprioJob &a, const SprioJob &b, const SprioFactors &w) {
    if (const Factor *f = factor_of(c))
        return compare_double(weighted(a, f->member, w), weighted(b, f->member, w));
    switch (c) {
    case 'i':
        return three_way(a.job_id, b.job_id);
    case 'N':
        return three_way(a.factors ? a.factors->nice : 0, b.factors ? b.factors->nice : 0);
    case 'n':
        return three_way(a.qos, b.qos);
    case 'o':
        return three_way(a.account, b.account);
    case 'r':
        return three_way(a.partition, b.partition);
    case 'u':
        return three_way(a.user, b.user);
    case 't':
    case 'T':
        return compare_double(tres_sum(a, w), tres_sum(b, w));
    case 'y':
    case 'Y':
        return compare_double(sprio_priority(a, w), sprio_priority(b, w));
    default: // 'c': one cluster
        return 0;
    }
}

std::string rendered(const FormatSpec &spec, const std::function<std::string(char)> &value_of) {
    return render_line(spec, [&](const FieldSpec &f) { return FieldValue{value_of(f.type)}; }) +
           "\n";
}

} // namespace

std::string sprio_default_format(const SprioFactors &weights, const SprioLayout &layout) {
    if (layout.long_list) return layout.normalized ? kNormalizedLong : kWeightedLong;
    std::string fmt = layout.clusters ? "%.15i %.8c %9r" : "%.15i %9r";
    if (layout.users) fmt += " %.8u";
    fmt += layout.normalized ? " %10y" : " %.10Y %.10S";
    for (const auto &f : kFactors)
        if (weights.*(f.member) != 0)
            fmt += layout.normalized ? std::string(" %10") + f.normalized
                                     : std::string(" %.10") + f.weighted;
    if (!weights.tres.empty()) fmt += layout.normalized ? " %20t" : " %.20T";
    return fmt;
}

SprioFormat sprio_format(std::string_view fmt) {
    FormatSpec parsed = parse_percent_format(fmt);
    SprioFormat out;
    out.spec.prefix = std::move(parsed.prefix);
    for (auto &f : parsed.fields) {
        if (letter_of(f.type))
            out.spec.fields.push_back(std::move(f));
        else
            out.errors.push_back(std::string("Invalid job format specification: ") + f.type);
    }
    return out;
}

std::vector<SprioSortKey> parse_sprio_sort(std::string_view spec) {
    // Read from the end, as Slurm does: the last bad letter is the one reported.
    std::vector<SprioSortKey> keys;
    for (std::size_t i = spec.size(); i-- > 0;) {
        char c = spec[i];
        if (c == ',' || c == '-' || c == '+') continue;
        if (kSortLetters.find(c) == std::string_view::npos)
            throw ParseError(std::string("Invalid sort specification: ") + c);
        keys.insert(keys.begin(), SprioSortKey{c, i > 0 && spec[i - 1] == '-'});
    }
    return keys;
}

void sprio_sort(std::vector<SprioJob> &jobs, const std::vector<SprioSortKey> &keys,
                const SprioFactors &weights) {
    std::stable_sort(jobs.begin(), jobs.end(), [&](const SprioJob &a, const SprioJob &b) {
        for (const auto &k : keys) {
            int c = compare_by(k.letter, a, b, weights);
            if (c != 0) return k.descending ? c > 0 : c < 0;
        }
        return false;
    });
}

double sprio_priority(const SprioJob &job, const SprioFactors &weights) {
    if (!job.factors) return job.priority;
    const SprioFactors &f = *job.factors;
    double sum = 0;
    for (const auto &d : kFactors) sum += f.*(d.member) * weights.*(d.member);
    sum += static_cast<double>(f.site) - static_cast<double>(f.nice) + tres_sum(job, weights);
    return sum < 1 ? 1 : sum; // 0 is kept for held jobs
}

std::string sprio_text(const SprioFormat &fmt, const SprioReport &report, const SprioOutput &out) {
    if (out.jobs_named && report.jobs.empty())
        return "Unable to find jobs matching user/id(s) specified\n";
    std::string text;
    if (out.header) text += rendered(fmt.spec, [](char c) { return letter_of(c)->header; });
    if (out.weights_only)
        return text + rendered(fmt.spec, [&](char c) { return weights_value(c, report.weights); });
    std::vector<SprioJob> jobs = report.jobs;
    sprio_sort(jobs, out.sort, report.weights);
    for (const auto &j : jobs)
        text += rendered(fmt.spec, [&](char c) { return job_value(c, j, report.weights); });
    return text;
}

std::string sprio_format_letters() {
    std::string out;
    int on_line = 0;
    for (const auto &l : kLetters) {
        if (on_line == 8) {
            out += "\n";
            on_line = 0;
        }
        ++on_line;
        out += std::string("%") + l.c + "    ";
    }
    return out + "\n";
}

std::optional<std::string> sprio_plugin_error(std::string_view priority_type) {
    if (!priority_type.empty() && !iequals(priority_type, "priority/basic")) return std::nullopt;
    std::string shown = priority_type.empty() ? "priority/basic" : std::string(priority_type);
    return "You are not running a supported priority plugin\n(" + shown +
           ").\nOnly 'priority/multifactor' is supported.\n";
}

} // namespace drover::cli
