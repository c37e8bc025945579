package io.observatory.config;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.validation.BindingResult;
import org.springframework.validation.Errors;
import org.springframework.validation.FieldError;
import org.springframework.validation.Validator;

/**
 * Runs a {@link Checked} record's own rules as the binder validates it, beside Bean Validation's field constraints,
 * and turns what it reports into Spring's field errors on the named properties: with the bound value as rejected, or
 * with the text the rule says was found. One line per error then reads like any broken constraint.
 */
final class ConfigChecks implements Validator {

    private final Function<String, @Nullable String> environment;
    private final boolean startUp;

    /**
     * @param environment an environment variable's value by name, {@code null} when unset
     * @param startUp     whether the configuration is the one the process starts with, not a reload
     */
    ConfigChecks(Function<String, @Nullable String> environment, boolean startUp) {
        this.environment = environment;
        this.startUp = startUp;
    }

    @Override
    public boolean supports(Class<?> type) {
        return Checked.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        Problems problems = new Problems(errors.getObjectName(), environment, startUp);
        ((Checked) target).check(problems);
        for (Problems.Problem problem : problems.reported()) {
            if (problem.found() == null) {
                errors.rejectValue(problem.property(), "invalid", problem.expected());
            } else {
                ((BindingResult) errors)
                        .addError(new FieldError(
                                errors.getObjectName(),
                                problem.property(),
                                problem.found(),
                                false,
                                new String[] {"invalid"},
                                null,
                                problem.expected()));
            }
        }
    }
}
