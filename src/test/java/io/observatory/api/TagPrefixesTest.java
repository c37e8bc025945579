package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TagPrefixesTest {

    static Stream<Arguments> invalidLists() {
        return Stream.of(
                Arguments.of("selector", List.of(), true, "selector: empty (expected: 1-256 tag prefixes)"),
                Arguments.of(
                        "selector",
                        Collections.nCopies(257, "a"),
                        true,
                        "selector: 257 tag prefixes (expected: 1-256)"),
                Arguments.of(
                        "tag_prefixes",
                        Collections.nCopies(257, "a"),
                        false,
                        "tag_prefixes: 257 tag prefixes (expected: at most 256)"),
                Arguments.of(
                        "selector",
                        List.of("a", "b\u0000\u001b[31m"),
                        true,
                        "selector[1]: \"b\\u0000\\u001b[31m\" (expected: a tag prefix without control characters)"),
                Arguments.of(
                        "tag_prefixes",
                        List.of("a\n"),
                        false,
                        "tag_prefixes[0]: \"a\\n\" (expected: a tag prefix without control characters)"),
                Arguments.of(
                        "selector",
                        List.of("a", "b", "c", ""),
                        true,
                        "selector[3]: \"\" (expected: a non-empty tag prefix)"),
                Arguments.of(
                        "tag_prefixes", List.of(""), false, "tag_prefixes[0]: \"\" (expected: a non-empty tag prefix)"),
                Arguments.of(
                        "selector", List.of("x".repeat(300)), true, "selector[0]: 300 bytes (expected: at most 256)"),
                Arguments.of(
                        "selector",
                        List.of("ok", "x".repeat(257)),
                        true,
                        "selector[1]: 257 bytes (expected: at most 256)"),
                // 129 two-byte characters: the limit is in UTF-8 bytes, not characters.
                Arguments.of(
                        "selector", List.of("é".repeat(129)), true, "selector[0]: 258 bytes (expected: at most 256)"));
    }

    @ParameterizedTest
    @MethodSource("invalidLists")
    void validateWhenListBreaksLimitThenInvalidArgumentNamesFieldValueAndExpectation(
            String field, List<String> prefixes, boolean required, String description) {
        StatusRuntimeException error = catchThrowableOfType(
                StatusRuntimeException.class, () -> TagPrefixes.validate(field, prefixes, required));

        assertThat(error.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(error.getStatus().getDescription()).isEqualTo(description);
    }

    static Stream<Arguments> validLists() {
        return Stream.of(
                Arguments.of(List.of(), false),
                Arguments.of(List.of("proxy_"), true),
                Arguments.of(Collections.nCopies(256, "a"), true),
                Arguments.of(List.of("x".repeat(256)), true),
                Arguments.of(List.of("é".repeat(128)), true));
    }

    @ParameterizedTest
    @MethodSource("validLists")
    void validateWhenListWithinLimitsThenPasses(List<String> prefixes, boolean required) {
        assertThatCode(() -> TagPrefixes.validate("selector", prefixes, required))
                .doesNotThrowAnyException();
    }

    @Test
    void quoteWhenValueHasQuotesBackslashesAndControlsThenEscapesThem() {
        assertThat(TagPrefixes.quote("a\"b\\c\nd\u0000")).isEqualTo("\"a\\\"b\\\\c\\nd\\u0000\"");
    }

    @Test
    void quoteWhenValueIsLongThenCutAfter64Characters() {
        assertThat(TagPrefixes.quote("x".repeat(1000))).isEqualTo("\"" + "x".repeat(64) + "\"… (1000 characters)");
        assertThat(TagPrefixes.quote("x".repeat(64))).isEqualTo("\"" + "x".repeat(64) + "\"");
    }

    @Test
    void quoteWhenCutFallsInsideSurrogatePairThenKeepsPairWhole() {
        String value = "x".repeat(63) + "\uD83D\uDE00" + "tail";

        assertThat(TagPrefixes.quote(value)).isEqualTo("\"" + "x".repeat(63) + "\"… (69 characters)");
    }
}
