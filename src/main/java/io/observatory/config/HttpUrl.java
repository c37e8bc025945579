package io.observatory.config;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A probe URL: an absolute {@code http} or {@code https} URL with a host and, when a port is given, a port 1-65535,
 * as {@link URI} (and with it reactor-netty's client) reads it. {@code null} and blank values are valid: they mean
 * "not set", and the record they belong to says what that means. The value is checked trimmed (Xray trims its URLs).
 *
 * <p>Stricter than Go in one place: a host name with {@code _} ({@code http://my_host.example/}), which Go and Xray
 * accept, has no host for {@link URI}, so it is rejected with a message saying so.
 */
@Documented
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = HttpUrl.Validator.class)
public @interface HttpUrl {

    /** The expectation of a value that is no absolute http(s) URL with a host. */
    String EXPECTED = "an absolute http or https URL with a host, e.g. https://example.com/generate_204";

    /** Unused: the validator says which part of the URL is wrong. */
    String message() default EXPECTED;

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Checks a value and names what is wrong with it: the URL as a whole, its port, or a {@code _} in its host. */
    final class Validator implements ConstraintValidator<HttpUrl, String> {

        private static final String EXPECTED_PORT = "port 1-65535";

        private static final String EXPECTED_HOST =
                "a host name of letters, digits, '-' and '.' ('_' is not supported in probe URLs)";

        /** An authority {@link URI} could not read as host and port: optional user-info, host, optional port. */
        private static final Pattern AUTHORITY = Pattern.compile("(?:.*@)?(\\[[^]]*]|[^:]*)(?::(.*))?");

        @Override
        public boolean isValid(@Nullable String value, ConstraintValidatorContext context) {
            if (value == null || value.isBlank()) {
                return true;
            }
            String expected = problem(value.strip());
            if (expected == null) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(template(expected)).addConstraintViolation();
            return false;
        }

        /** {@code expected} as a message template: Bean Validation interpolates braces, '$' and '\\'. */
        private static String template(String expected) {
            return expected.replace("\\", "\\\\")
                    .replace("{", "\\{")
                    .replace("}", "\\}")
                    .replace("$", "\\$");
        }

        /** What is expected of {@code text} instead, or {@code null} when it is a probe URL. */
        private static @Nullable String problem(String text) {
            URI url;
            try {
                url = new URI(text);
            } catch (URISyntaxException e) {
                return EXPECTED;
            }
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https"))) {
                return EXPECTED;
            }
            if (url.getHost() == null) {
                return withoutHost(url);
            }
            return url.getPort() != -1 && (url.getPort() < 1 || url.getPort() > 65_535) ? EXPECTED_PORT : null;
        }

        /** For a URL that {@link URI} parsed without a host: an invalid port, a {@code _}, or no host at all. */
        private static String withoutHost(URI url) {
            Matcher authority = AUTHORITY.matcher(url.getRawAuthority() == null ? "" : url.getRawAuthority());
            if (url.getRawAuthority() == null || !authority.matches()) {
                return EXPECTED;
            }
            String port = authority.group(2);
            if (!authority.group(1).isEmpty()
                    && port != null
                    && !port.isEmpty()
                    && port.chars().allMatch(Character::isDigit)) {
                return EXPECTED_PORT;
            }
            return authority.group(1).indexOf('_') >= 0 ? EXPECTED_HOST : EXPECTED;
        }
    }
}
