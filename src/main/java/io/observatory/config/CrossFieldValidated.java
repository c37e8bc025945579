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
import java.util.function.Function;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;
import org.jspecify.annotations.Nullable;

/**
 * A settings record with rules that span several of its properties or need more than an annotation can say (a
 * direct outbound takes no address, a username needs a password, tags are unique, a token file must hold a token).
 * Bean Validation checks them as a class-level constraint, {@link Checked}, declared on this interface and so
 * inherited by every implementation; each violation is reported on the property it names, like a field constraint.
 */
@CrossFieldValidated.Checked
public interface CrossFieldValidated {

    /**
     * Reports every rule this record breaks; called after the record's field constraints were checked, with the
     * record as bound (null-checked fields may still be null here).
     */
    void validate(Violations violations);

    /** The class-level constraint that runs {@link #validate}. */
    @Documented
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @Constraint(validatedBy = Validator.class)
    @interface Checked {

        /** Unused: each violation brings its own message. */
        String message() default "";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};
    }

    /**
     * What {@link Violations} reads of the process, set as the validator's constraint validator payload
     * ({@link ObservatoryConfigBinder}), so that tests can pass their own.
     *
     * @param lookup  an environment variable's value by name, {@code null} when unset
     *                ({@link Violations#environmentVariable})
     * @param startUp whether the configuration bound is the one the process starts with, not a reload
     *                ({@link Violations#startUp})
     */
    record ValidationContext(Function<String, @Nullable String> lookup, boolean startUp) {}

    /** Runs {@link #validate} and turns what it reports into constraint violations on the named properties. */
    final class Validator implements ConstraintValidator<Checked, CrossFieldValidated> {

        @Override
        public boolean isValid(@Nullable CrossFieldValidated value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            HibernateConstraintValidatorContext hibernate = context.unwrap(HibernateConstraintValidatorContext.class);
            ValidationContext environment = hibernate.getConstraintValidatorPayload(ValidationContext.class);
            Violations violations = environment == null
                    ? new Violations(System::getenv, true)
                    : new Violations(environment.lookup(), environment.startUp());
            value.validate(violations);
            if (violations.isEmpty()) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            violations.forEach((property, message) -> context.buildConstraintViolationWithTemplate(message)
                    .addPropertyNode(property)
                    .addConstraintViolation());
            return false;
        }
    }
}
