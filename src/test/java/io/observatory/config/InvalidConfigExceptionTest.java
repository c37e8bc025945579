package io.observatory.config;

import io.observatory.text.Redaction;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InvalidConfigExceptionTest {

    @Test
    void messageWhenPortOutOfRangeThenPropertyValueAndExpectationOnOneLine() {
        InvalidConfigException exception = new InvalidConfigException("observatory.outbounds[1].port", "70000",
                "1-65535");

        assertThat(exception).hasMessage("observatory.outbounds[1].port: 70000 (expected: 1-65535)");
        assertThat(exception.property()).isEqualTo("observatory.outbounds[1].port");
        assertThat(exception.value()).isEqualTo("70000");
        assertThat(exception.expected()).isEqualTo("1-65535");
    }

    @Test
    void messageWhenPasswordPropertyThenValueMasked() {
        InvalidConfigException exception = new InvalidConfigException("observatory.outbounds[0].password", "s3cret",
                "nothing for protocol direct");

        assertThat(exception)
                .hasMessage("observatory.outbounds[0].password: ****** (expected: nothing for protocol direct)");
        assertThat(exception.value()).isEqualTo(Redaction.MASK);
    }

    @Test
    void messageWhenPasswordMissingThenSaysNone() {
        assertThat(new InvalidConfigException("observatory.outbounds[0].password", null, "a password"))
                .hasMessage("observatory.outbounds[0].password: (none) (expected: a password)");
    }

    @Test
    void messageWhenPasswordEmptyThenSaysEmptyInsteadOfMask() {
        InvalidConfigException exception = new InvalidConfigException("observatory.outbounds[0].password", "",
                "a password");

        assertThat(exception).hasMessage("observatory.outbounds[0].password: (empty) (expected: a password)");
        assertThat(exception.value()).isEmpty();
    }

    @Test
    void messageWhenMisspelledPasswordKeyThenValueMasked() {
        assertThat(new InvalidConfigException("observatory.outbounds[0].pasword", "hunter2", "a known property"))
                .hasMessage("observatory.outbounds[0].pasword: ****** (expected: a known property)");
    }

    @Test
    void messageWhenValueIsUrlWithPasswordThenPasswordMasked() {
        InvalidConfigException exception = new InvalidConfigException("observatory.standard.probe-url",
                "http://user:s3cret@127.0.0.1:99999/", "port 1-65535");

        assertThat(exception).hasMessage(
                "observatory.standard.probe-url: http://user:******@127.0.0.1:99999/ (expected: port 1-65535)");
        assertThat(exception.value()).isEqualTo("http://user:******@127.0.0.1:99999/");
    }

    @Test
    void describeFoundWhenDescriptionThenPrintedAsIsEvenForPassword() {
        assertThat(InvalidConfigException.describeFound("observatory.outbounds[0].password", "(a nested map)",
                "a single value"))
                .isEqualTo("observatory.outbounds[0].password: (a nested map) (expected: a single value)");
    }
}
