package io.observatory.dashboard;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The series a PromQL expression reads: every vector selector's metric name and the label names its matchers use,
 * and the label names of its {@code by}, {@code without}, {@code on}, {@code ignoring}, {@code group_left} and
 * {@code group_right} clauses. Enough of PromQL's lexical grammar to tell a metric from everything else that looks
 * like a name: function names (a name before {@code (}), aggregation operators, keywords and {@code inf}/{@code nan}
 * (case-insensitive, as in Prometheus), label names inside {@code {}} and grouping clauses, strings, numbers and
 * durations, range and subquery brackets, comments, and Grafana's variables ({@code $name}, {@code ${name:format}},
 * {@code [[name]]}). A selector without a metric name is taken by its {@code __name__="..."} matcher; one with
 * neither is rejected, as is an unclosed bracket or string.
 */
final class PromQl {

    /** Aggregation operators: a name that can stand before {@code by}/{@code without} as well as {@code (}. */
    private static final Set<String> AGGREGATIONS = Set.of(
            "sum",
            "min",
            "max",
            "avg",
            "group",
            "stddev",
            "stdvar",
            "count",
            "count_values",
            "bottomk",
            "topk",
            "quantile",
            "limitk",
            "limit_ratio");
    /** Clauses followed by a parenthesised list of label names. */
    private static final Set<String> GROUPING = Set.of("by", "without", "on", "ignoring", "group_left", "group_right");
    /** Binary operators, modifiers and number literals spelt as names. */
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "atan2", "bool", "offset", "inf", "nan");

    private static final String METRIC_NAME_LABEL = "__name__";

    private PromQl() {}

    /**
     * One vector selector.
     *
     * @param metric the metric name, e.g. {@code observatory_probe_rtt_seconds_bucket}
     * @param labels the label names its matchers use
     */
    record Selector(String metric, Set<String> labels) {}

    /**
     * What an expression reads.
     *
     * @param selectors      every vector selector, in order of appearance
     * @param groupingLabels the label names of its grouping and matching clauses
     */
    record Query(List<Selector> selectors, Set<String> groupingLabels) {

        /** The metric names of {@link #selectors}, in order, without repetition. */
        Set<String> metrics() {
            Set<String> metrics = new LinkedHashSet<>();
            selectors.forEach(selector -> metrics.add(selector.metric()));
            return metrics;
        }
    }

    /**
     * Reads {@code expression}.
     *
     * @throws IllegalArgumentException when it is not lexically PromQL, or has a selector without a metric name
     */
    static Query parse(String expression) {
        return new Parser(expression, Lexer.tokens(expression)).query();
    }

    private enum Kind {
        NAME,
        STRING,
        NUMBER,
        VARIABLE,
        RANGE,
        PUNCTUATION
    }

    private record Token(Kind kind, String text) {

        boolean is(String punctuation) {
            return kind == Kind.PUNCTUATION && text.equals(punctuation);
        }
    }

    /** Splits an expression into tokens; a string token's text is its content, a range's is the bracket. */
    private static final class Lexer {

        private final String source;
        private final List<Token> tokens = new ArrayList<>();
        private int at;

        private Lexer(String source) {
            this.source = source;
        }

        static List<Token> tokens(String source) {
            Lexer lexer = new Lexer(source);
            lexer.run();
            return lexer.tokens;
        }

        private void run() {
            while (at < source.length()) {
                char c = source.charAt(at);
                if (Character.isWhitespace(c)) {
                    at++;
                } else if (c == '#') {
                    int end = source.indexOf('\n', at);
                    at = end < 0 ? source.length() : end;
                } else if (c == '"' || c == '\'' || c == '`') {
                    string(c);
                } else if (c == '$') {
                    variable();
                } else if (c == '[') {
                    range();
                } else if (Character.isDigit(c)
                        || c == '.' && at + 1 < source.length() && Character.isDigit(source.charAt(at + 1))) {
                    number();
                } else if (nameStart(c)) {
                    int start = at;
                    while (at < source.length() && namePart(source.charAt(at))) {
                        at++;
                    }
                    tokens.add(new Token(Kind.NAME, source.substring(start, at)));
                } else {
                    punctuation();
                }
            }
        }

        private void string(char quote) {
            StringBuilder text = new StringBuilder();
            int start = at++;
            while (at < source.length() && source.charAt(at) != quote) {
                if (source.charAt(at) == '\\' && quote != '`') {
                    at++;
                }
                if (at < source.length()) {
                    text.append(source.charAt(at++));
                }
            }
            if (at >= source.length()) {
                throw new IllegalArgumentException("unclosed string at " + start + " in: " + source);
            }
            at++;
            tokens.add(new Token(Kind.STRING, text.toString()));
        }

        /** {@code $name}, {@code $__rate_interval} or {@code ${name:format}}. */
        private void variable() {
            int start = at++;
            if (at < source.length() && source.charAt(at) == '{') {
                at = closing(start, '}') + 1;
            } else {
                while (at < source.length() && namePart(source.charAt(at))) {
                    at++;
                }
            }
            tokens.add(new Token(Kind.VARIABLE, source.substring(start, at)));
        }

        /** A range or subquery ({@code [5m]}, {@code [$__rate_interval]}, {@code [1h:1m]}) or {@code [[name]]}. */
        private void range() {
            int start = at;
            int depth = 0;
            do {
                char c = source.charAt(at);
                depth += c == '[' ? 1 : c == ']' ? -1 : 0;
                at++;
            } while (depth > 0 && at < source.length());
            if (depth > 0) {
                throw new IllegalArgumentException("unclosed [ at " + start + " in: " + source);
            }
            tokens.add(new Token(
                    source.startsWith("[[", start) ? Kind.VARIABLE : Kind.RANGE, source.substring(start, at)));
        }

        /** {@code 20}, {@code 0.5}, {@code 1e9}, {@code 1e-3}, {@code 0x1F}, or a duration such as {@code 1h30m}. */
        private void number() {
            int start = at;
            boolean hex = source.startsWith("0x", start) || source.startsWith("0X", start);
            while (at < source.length()) {
                char c = source.charAt(at);
                boolean exponentSign = (c == '+' || c == '-')
                        && !hex
                        && (source.charAt(at - 1) == 'e' || source.charAt(at - 1) == 'E');
                if (!Character.isLetterOrDigit(c) && c != '.' && c != '_' && !exponentSign) {
                    break;
                }
                at++;
            }
            tokens.add(new Token(Kind.NUMBER, source.substring(start, at)));
        }

        private void punctuation() {
            for (String two : List.of("==", "!=", "=~", "!~", ">=", "<=")) {
                if (source.startsWith(two, at)) {
                    tokens.add(new Token(Kind.PUNCTUATION, two));
                    at += 2;
                    return;
                }
            }
            tokens.add(new Token(Kind.PUNCTUATION, String.valueOf(source.charAt(at++))));
        }

        private int closing(int start, char close) {
            int end = source.indexOf(close, at);
            if (end < 0) {
                throw new IllegalArgumentException(
                        "unclosed " + source.charAt(start) + " at " + start + " in: " + source);
            }
            return end;
        }

        private static boolean nameStart(char c) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':';
        }

        private static boolean namePart(char c) {
            return nameStart(c) || c >= '0' && c <= '9';
        }
    }

    /** Walks the tokens once, taking selectors and grouping labels where they stand. */
    private static final class Parser {

        private final String source;
        private final List<Token> tokens;
        private final List<Selector> selectors = new ArrayList<>();
        private final Set<String> groupingLabels = new LinkedHashSet<>();
        private int at;

        Parser(String source, List<Token> tokens) {
            this.source = source;
            this.tokens = tokens;
        }

        Query query() {
            for (at = 0; at < tokens.size(); at++) {
                Token token = tokens.get(at);
                if (token.is("{")) {
                    selector(null);
                } else if (token.kind() == Kind.NAME) {
                    name(token.text());
                }
            }
            return new Query(List.copyOf(selectors), Set.copyOf(groupingLabels));
        }

        private void name(String name) {
            String keyword = name.toLowerCase(Locale.ROOT);
            if (GROUPING.contains(keyword)) {
                if (next("(")) {
                    at++;
                    labelList();
                }
            } else if (!AGGREGATIONS.contains(keyword) && !KEYWORDS.contains(keyword) && !next("(")) {
                if (next("{")) {
                    at++;
                    selector(name);
                } else {
                    selectors.add(new Selector(name, Set.of()));
                }
            }
        }

        /** At {@code (}: the label names up to {@code )}. */
        private void labelList() {
            for (at++; at < tokens.size() && !tokens.get(at).is(")"); at++) {
                Token token = tokens.get(at);
                if (token.kind() == Kind.NAME || token.kind() == Kind.STRING) {
                    groupingLabels.add(token.text());
                } else if (!token.is(",")) {
                    throw new IllegalArgumentException("unexpected " + token.text() + " in a label list in: " + source);
                }
            }
            expectClosed(")");
        }

        /** At {@code {}: the matchers up to {@code }}, each {@code label op "value"}. */
        private void selector(String name) {
            Set<String> labels = new LinkedHashSet<>();
            String metric = name;
            for (at++; at < tokens.size() && !tokens.get(at).is("}"); at++) {
                Token label = tokens.get(at);
                if (label.is(",")) {
                    continue;
                }
                if (at + 2 >= tokens.size()
                        || tokens.get(at + 1).kind() != Kind.PUNCTUATION
                        || tokens.get(at + 2).kind() != Kind.STRING) {
                    throw new IllegalArgumentException(
                            "a matcher label op \"value\" expected at " + label.text() + " in: " + source);
                }
                if (label.text().equals(METRIC_NAME_LABEL) && tokens.get(at + 1).is("=")) {
                    metric = tokens.get(at + 2).text();
                } else {
                    labels.add(label.text());
                }
                at += 2;
            }
            expectClosed("}");
            if (metric == null) {
                throw new IllegalArgumentException("a selector without a metric name in: " + source);
            }
            selectors.add(new Selector(metric, Set.copyOf(labels)));
        }

        private boolean next(String punctuation) {
            return at + 1 < tokens.size() && tokens.get(at + 1).is(punctuation);
        }

        private void expectClosed(String close) {
            if (at >= tokens.size()) {
                throw new IllegalArgumentException("missing " + close + " in: " + source);
            }
        }
    }
}
