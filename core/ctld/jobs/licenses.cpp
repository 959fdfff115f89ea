// licenses.cpp - the license pool.
#include "ctld/jobs/licenses.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "ctld/jobs/job.hpp"

namespace drover::ctld {

namespace {

constexpr const char *kKey = "licenses";

std::vector<LicenseCount> asks(const Job &job) {
    const std::string &text = job.ext().licenses;
    if (text.empty()) return {};
    try {
        return parse_licenses(text);
    } catch (const ParseError &) {
        return {}; // read_ask let only well-formed text in
    }
}

} // namespace

Licenses::Licenses(std::string_view configured) {
    try {
        total_ = parse_licenses(configured);
    } catch (const ParseError &) {
        // The configuration parser refused it already.
    }
}

Status Licenses::read_ask(std::string &ask) const {
    std::vector<LicenseCount> want;
    try {
        want = parse_licenses(ask);
    } catch (const ParseError &) {
        return invalid(kInvalidLicenses);
    }
    for (const auto &w : want) {
        auto it = std::find_if(total_.begin(), total_.end(),
                               [&](const LicenseCount &t) { return t.name == w.name; });
        if (it == total_.end() || w.count > it->count) return invalid(kInvalidLicenses);
    }
    ask = licenses_text(want);
    return {};
}

void Licenses::set(const Job &job) {
    policy::Share s;
    if (job.running())
        for (const auto &l : asks(job)) s.tres["license/" + l.name] += l.count;
    if (s.tres.empty()) return held_.remove(job.id);
    s.keys = {kKey};
    s.running = true;
    held_.set(job.id, std::move(s));
}

bool Licenses::free_for(const Job &job) const {
    const policy::Tres &held = held_.use(kKey).tres;
    for (const auto &l : asks(job)) {
        auto t = std::find_if(total_.begin(), total_.end(),
                              [&](const LicenseCount &c) { return c.name == l.name; });
        auto h = held.find("license/" + l.name);
        uint64_t used = h == held.end() ? 0 : h->second;
        if (t == total_.end() || used + l.count > t->count) return false;
    }
    return true;
}

std::vector<Licenses::Row> Licenses::rows() const {
    const policy::Tres &held = held_.use(kKey).tres;
    std::vector<Row> out;
    for (const auto &t : total_) {
        auto h = held.find("license/" + t.name);
        out.push_back({t.name, t.count, h == held.end() ? 0u : uint32_t(h->second)});
    }
    std::sort(out.begin(), out.end(), [](const Row &a, const Row &b) { return a.name < b.name; });
    return out;
}

} // namespace drover::ctld
