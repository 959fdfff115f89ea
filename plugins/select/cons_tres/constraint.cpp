// constraint.cpp - parsing and matching feature expressions.
#include "constraint.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace cons_tres {

namespace {

bool feature_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == ':' || c == '/' || c == '=' || c == '+';
}

} // namespace

// A recursive-descent reader over the text; depth is bounded so that hostile input cannot
// exhaust the stack.
struct ConstraintParser {
    std::string_view s;
    size_t i = 0;
    int depth = 0;

    [[noreturn]] void fail(const std::string &what) const {
        throw std::invalid_argument("bad constraint '" + std::string(s.substr(0, 80)) +
                                    "': " + what);
    }
    void skip() {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    }
    bool eat(char c) {
        skip();
        if (i < s.size() && s[i] == c) {
            ++i;
            return true;
        }
        return false;
    }
};

// The recursive descent over the text: | binds loosest, then & (or ','), then (..), [..] and
// feature names with an optional *count.
struct Constraint::Reader {
    ConstraintParser &p;
    Expr parse_or() {
        if (++p.depth > 64) p.fail("nested too deeply");
        Expr first = parse_and();
        if (!p.eat('|')) {
            --p.depth;
            return first;
        }
        Expr e;
        e.kind = Expr::Or;
        e.kids.push_back(std::move(first));
        do e.kids.push_back(parse_and());
        while (p.eat('|'));
        --p.depth;
        return e;
    }
    Expr parse_and() {
        Expr first = parse_unary();
        if (!p.eat('&') && !p.eat(',')) return first;
        Expr e;
        e.kind = Expr::And;
        e.kids.push_back(std::move(first));
        do e.kids.push_back(parse_unary());
        while (p.eat('&') || p.eat(','));
        return e;
    }
    Expr parse_unary() {
        if (p.eat('(')) {
            Expr e = parse_or();
            if (!p.eat(')')) p.fail("')' expected at position " + std::to_string(p.i + 1));
            return e;
        }
        if (p.eat('[')) {
            Expr e = parse_or();
            if (!p.eat(']')) p.fail("']' expected at position " + std::to_string(p.i + 1));
            if (e.kind == Expr::Or) e.kind = Expr::Match;
            return e;
        }
        p.skip();
        size_t start = p.i;
        while (p.i < p.s.size() && feature_char(p.s[p.i])) ++p.i;
        if (p.i == start)
            p.fail(p.i < p.s.size() ? "unexpected '" + std::string(1, p.s[p.i]) + "' at position " +
                                          std::to_string(p.i + 1)
                                    : "a feature name expected at the end");
        Expr e;
        e.kind = Expr::Feature;
        e.name = std::string(p.s.substr(start, p.i - start));
        if (p.eat('*')) {
            p.skip();
            size_t ds = p.i;
            uint64_t n = 0;
            while (p.i < p.s.size() && std::isdigit(static_cast<unsigned char>(p.s[p.i])) &&
                   p.i - ds < 9)
                n = n * 10 + static_cast<uint64_t>(p.s[p.i++] - '0');
            if (p.i == ds || n == 0) p.fail("a count of 1 or more expected after '*'");
            e.count = static_cast<uint32_t>(n);
        }
        return e;
    }
};

// Checks where counts and [a|b] may stand, and collects counts and names.
struct Constraint::Checker {
    Constraint &c;
    ConstraintParser &p;
    int matches = 0;
    void operator()(const Expr &e, bool and_path, bool in_match) {
        switch (e.kind) {
        case Expr::Feature:
            if (e.count) {
                if (!and_path || in_match)
                    p.fail("a node count (" + e.name + "*" + std::to_string(e.count) +
                           ") is allowed only in an & list");
                c.counts_.emplace_back(e.name, e.count);
            }
            if (std::find(c.names_.begin(), c.names_.end(), e.name) == c.names_.end())
                c.names_.push_back(e.name);
            break;
        case Expr::And:
            for (const Expr &k : e.kids) (*this)(k, and_path, in_match);
            break;
        case Expr::Or:
            for (const Expr &k : e.kids) (*this)(k, false, in_match);
            break;
        case Expr::Match:
            if (!and_path || in_match || ++matches > 1)
                p.fail("one [a|b] group is allowed, and not inside | or another [..|..]");
            for (const Expr &k : e.kids) (*this)(k, false, true);
            break;
        case Expr::None:
            break;
        }
    }
};

Constraint Constraint::parse(std::string_view text) {
    Constraint c;
    ConstraintParser p{text};
    p.skip();
    if (p.i >= text.size()) return c;
    c.root_ = Reader{p}.parse_or();
    p.skip();
    if (p.i < text.size())
        p.fail("unexpected '" + std::string(1, text[p.i]) + "' at position " +
               std::to_string(p.i + 1));
    Checker{c, p}(c.root_, true, false);
    return c;
}

const Constraint::Expr *Constraint::find_match(const Expr &e) {
    if (e.kind == Expr::Match) return &e;
    if (e.kind == Expr::And)
        for (const Expr &k : e.kids)
            if (const Expr *m = find_match(k)) return m;
    return nullptr;
}

size_t Constraint::variants() const {
    const Expr *m = find_match(root_);
    return m ? m->kids.size() : 1;
}

bool Constraint::eval(const Expr &e, const std::vector<std::string> &f, size_t v) {
    switch (e.kind) {
    case Expr::None:
        return true;
    case Expr::Feature:
        return e.count > 0 || std::binary_search(f.begin(), f.end(), e.name);
    case Expr::And:
        return std::all_of(e.kids.begin(), e.kids.end(),
                           [&](const Expr &k) { return eval(k, f, v); });
    case Expr::Or:
        return std::any_of(e.kids.begin(), e.kids.end(),
                           [&](const Expr &k) { return eval(k, f, v); });
    case Expr::Match:
        return v < e.kids.size() && eval(e.kids[v], f, v);
    }
    return false;
}

bool Constraint::matches(const std::vector<std::string> &sorted_features, size_t v) const {
    return eval(root_, sorted_features, v);
}

} // namespace cons_tres
