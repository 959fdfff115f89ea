// rest_api.cpp - matching a request to its operation, and who the client is.
#include "restd/rest_api.hpp"

#include <pwd.h>
#include <unistd.h>

#include "cli/text.hpp"
#include "restd/rest_ops.hpp"
#include "restd/status_page.hpp"

namespace drover::restd {

namespace {

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// %XX and '+' decoded (a malformed escape stays as it is).
std::string unescape(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
            out.push_back(char(hex(s[i + 1]) * 16 + hex(s[i + 2])));
            i += 2;
        } else {
            out.push_back(s[i] == '+' ? ' ' : s[i]);
        }
    }
    return out;
}

std::map<std::string, std::string> parse_query(std::string_view q) {
    std::map<std::string, std::string> out;
    for (const std::string &item : cli::split(q, '&')) {
        std::size_t eq = item.find('=');
        out[unescape(item.substr(0, eq))] =
            eq == std::string::npos ? "" : unescape(item.substr(eq + 1));
    }
    return out;
}

// Each operation's path template in parts ("job", "{job_id}"), in operations()' order: split
// once, not for every request.
const std::vector<std::vector<std::string>> &templates() {
    static const std::vector<std::vector<std::string>> all = [] {
        std::vector<std::vector<std::string>> t;
        for (const OpEntry &op : operations()) t.push_back(cli::split(op.path, '/'));
        return t;
    }();
    return all;
}

// The operation whose path template matches parts ("slurm", "v0.0.42", "job", "17"), and its
// argument; nullptr when none. wrong_method: a path that matched under another method.
const OpEntry *match(http::verb method, const std::vector<std::string> &parts, std::string *arg,
                     bool *wrong_method) {
    if (parts.size() < 3) return nullptr;
    for (std::size_t k = 0; k < operations().size(); ++k) {
        const OpEntry &op = operations()[k];
        const std::vector<std::string> &tmpl = templates()[k];
        if (parts[0] != op.base) continue;
        if (tmpl.size() != parts.size() - 2) continue;
        std::string value;
        bool same = true;
        for (std::size_t i = 0; i < tmpl.size() && same; ++i) {
            if (tmpl[i].front() == '{')
                value = unescape(parts[i + 2]);
            else
                same = tmpl[i] == parts[i + 2];
        }
        if (!same) continue;
        if (op.method != method) {
            *wrong_method = true;
            continue;
        }
        *arg = value;
        return &op;
    }
    return nullptr;
}

bool known_version(const std::string &v) {
    for (const auto &k : api_versions())
        if (k == v) return true;
    return false;
}

std::string header(const HttpRequest &req, std::string_view name) {
    auto it = req.find(boost::beast::string_view(name.data(), name.size()));
    return it == req.end() ? std::string() : std::string(it->value());
}

} // namespace

const std::vector<std::string> &api_versions() {
    static const std::vector<std::string> v = {"v0.0.40", "v0.0.41", "v0.0.42", "v0.0.43",
                                               "v0.0.44"};
    return v;
}

RestApi::RestApi(const Config &conf, AuthMode mode, net::CallPool &pool, bool status_page)
    : ctld_(conf), mode_(mode), pool_(pool), status_page_(status_page) {}

bool RestApi::identify(const HttpRequest &req, const Client &client, Identity *who,
                       std::string *why) const {
    if (mode_ == AuthMode::local) {
        if (!client.local) {
            *why = "rest_auth/local serves UNIX sockets only";
            return false;
        }
        if (client.uid == ::getuid()) return true; // runs as this daemon's own user
        passwd *pw = ::getpwuid(client.uid);
        if (!pw) {
            *why = "uid " + std::to_string(client.uid) + " has no user name";
            return false;
        }
        who->user = pw->pw_name; // the controller takes it from root or SlurmUser only
        return true;
    }
    who->token = header(req, "X-SLURM-USER-TOKEN");
    std::string bearer = header(req, "Authorization");
    if (who->token.empty() && bearer.rfind("Bearer ", 0) == 0) who->token = bearer.substr(7);
    who->user = header(req, "X-SLURM-USER-NAME");
    if (who->token.empty()) {
        *why = "no token: X-SLURM-USER-TOKEN or Authorization: Bearer is required";
        return false;
    }
    return true;
}

void RestApi::handle(HttpRequest req, const Client &client, Reply reply) {
    std::string target(req.target());
    std::size_t qmark = target.find('?');
    std::vector<std::string> parts = cli::split(target.substr(0, qmark), '/');
    if (req.method() == http::verb::get && parts.size() == 2 && parts[0] == "openapi" &&
        parts[1] == "v3")
        return reply(json_response(openapi_document()));
    if (status_page_ && req.method() == http::verb::get && parts.size() == 1 &&
        parts[0] == "status") {
        HttpResponse page = json_response(status_page_html());
        page.set(http::field::content_type, "text/html; charset=utf-8");
        return reply(std::move(page));
    }
    std::string version = parts.size() > 1 ? parts[1] : "";
    std::string arg;
    bool wrong_method = false;
    const OpEntry *op =
        known_version(version) ? match(req.method(), parts, &arg, &wrong_method) : nullptr;
    if (!op)
        return reply(error_response(wrong_method ? http::status::method_not_allowed
                                                 : http::status::not_found,
                                    version, "rest",
                                    wrong_method ? "Method not allowed for " + target
                                                 : "Unable to find requested URL " + target));
    Identity who;
    std::string why;
    if (!identify(req, client, &who, &why))
        return reply(error_response(http::status::unauthorized, version, "authentication", why));
    auto query = parse_query(qmark == std::string::npos ? "" : target.substr(qmark + 1));
    auto held = std::make_shared<HttpRequest>(std::move(req));
    auto out = std::make_shared<HttpResponse>();
    pool_.run(
        [this, op, held, out, who, version, arg, query] {
            *out = op->run(OpCall{ctld_, who, version, arg, query, *held});
        },
        [reply, out] { reply(std::move(*out)); });
}

} // namespace drover::restd
