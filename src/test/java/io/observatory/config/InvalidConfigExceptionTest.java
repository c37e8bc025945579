package io.observatory.config;

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
        assertThat(exception.value()).isEqualTo(InvalidConfigException.MASK);
    }

    @Test
    void messageWhenPasswordMissingThenSaysNone() {
        assertThat(new InvalidConfigException("observatory.outbounds[0].password", null, "a password"))
                .hasMessage("observatory.outbounds[0].password: (none) (expected: a password)");
    }
}
