package io.observatory.config;

import io.observatory.health.ExpectedStatus;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.HibernateValidatorFactory;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;

/**
 * The one configuration pipeline, for start-up and for every reload: binds {@code observatory.*} from an environment
 * into {@link ObservatoryConfig} with Spring Boot's {@link Binder} and validates every record with Hibernate
 * Validator while binding, as Spring Boot binds {@code @Validated} configuration properties. Durations read as Go
 * durations ({@link GoDurationConverter}); binding is strict: an unknown key under {@code observatory} (environment
 * variables and system properties exempt, as in Spring Boot) or a value of the wrong shape ({@link ShapeCheck})
 * stops it, and so does the first record, depth first in declaration order, that breaks a constraint. Every failure
 * is a {@link BindException}, which {@link ConfigFailureAnalyzer} reports in one line.
 */
public final class ObservatoryConfigBinder implements AutoCloseable {

    /** The configuration's prefix. */
    public static final String PREFIX = "observatory";

    private static final ConversionService CONVERSIONS = conversions();

    private final ValidatorFactory validation;
    private final SpringValidatorAdapter validator;
    private final SpringValidatorAdapter reloadValidator;

    /** A binder whose validation reads the process's environment variables. */
    public ObservatoryConfigBinder() {
        this(System::getenv);
    }

    /**
     * @param environmentVariables looks up an environment variable by name, {@code null} when unset; validation uses
     *                             it to check that the API token's variable is set
     */
    public ObservatoryConfigBinder(Function<String, @Nullable String> environmentVariables) {
        this.validation = Validation.byProvider(HibernateValidator.class)
                .configure()
                .messageInterpolator(new ParameterMessageInterpolator())
                .constraintValidatorPayload(new CrossFieldValidated.ValidationContext(environmentVariables, true))
                .buildValidatorFactory();
        this.validator = new SpringValidatorAdapter(validation.getValidator());
        this.reloadValidator = new SpringValidatorAdapter(validation
                .unwrap(HibernateValidatorFactory.class)
                .usingContext()
                .constraintValidatorPayload(new CrossFieldValidated.ValidationContext(environmentVariables, false))
                .getValidator());
    }

    /**
     * Binds and validates the configuration.
     *
     * @param environment Spring's environment: the running one at start-up, a freshly loaded one on reload
     * @return the configuration and the warnings to log
     * @throws BindException for the first value that does not convert, the first unknown key, a value of the wrong
     *                       shape, or the first record that breaks a constraint
     */
    public Bound bind(ConfigurableEnvironment environment) {
        return bind(environment, validator);
    }

    /**
     * Binds and validates a reloaded configuration, as {@link #bind} does but for the checks of settings that only a
     * start applies ({@link Violations#startUp}).
     *
     * @throws BindException as {@link #bind} does
     */
    public Bound bindReload(ConfigurableEnvironment environment) {
        return bind(environment, reloadValidator);
    }

    private Bound bind(ConfigurableEnvironment environment, SpringValidatorAdapter validator) {
        Binder binder = new Binder(
                ConfigurationPropertySources.get(environment),
                new PropertySourcesPlaceholdersResolver(environment),
                CONVERSIONS);
        Set<String> set = new HashSet<>();
        NoUnboundElementsBindHandler strict =
                new NoUnboundElementsBindHandler(new Recording(set), new UnboundElementsSourceFilter());
        BindHandler handler =
                new ShapeCheck(new UnknownKeysFirst(new ValidationBindHandler(strict, validator), strict));
        ObservatoryConfig config = binder.bindOrCreate(PREFIX, Bindable.of(ObservatoryConfig.class), handler);
        return new Bound(config, ConfigWarnings.of(config, set::contains));
    }

    /**
     * A settings record as bound from no properties at all: every component takes its {@code @DefaultValue}.
     * How a policy section that is not set gets its defaults, from the one place they are written.
     */
    static <T> T defaults(Class<T> type) {
        return new Binder(List.of(), null, CONVERSIONS).bindOrCreate("defaults", Bindable.of(type));
    }

    @Override
    public void close() {
        validation.close();
    }

    private static ConversionService conversions() {
        ApplicationConversionService conversions = new ApplicationConversionService();
        conversions.addConverter(new GoDurationConverter());
        conversions.addConverter(String.class, ExpectedStatus.class, ExpectedStatus::parse);
        conversions.addConverter(Number.class, ExpectedStatus.class, status -> ExpectedStatus.parse(status.toString()));
        return conversions;
    }

    /**
     * A bound configuration.
     *
     * @param config   the configuration, every default applied
     * @param warnings one line per setting that works but is probably not what was meant (see {@link ConfigWarnings})
     */
    public record Bound(ObservatoryConfig config, List<String> warnings) {

        public Bound {
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Checks for unknown keys before validation reports the record they belong to: a misspelled key ({@code pasword})
     * leaves its property unset, and the misspelling is what the operator must be told, not the missing value.
     */
    private static final class UnknownKeysFirst extends AbstractBindHandler {

        private final NoUnboundElementsBindHandler strict;

        UnknownKeysFirst(BindHandler parent, NoUnboundElementsBindHandler strict) {
            super(parent);
            this.strict = strict;
        }

        @Override
        public void onFinish(
                ConfigurationPropertyName name, Bindable<?> target, BindContext context, @Nullable Object result)
                throws Exception {
            if (context.getDepth() == 0) {
                strict.onFinish(name, target, context, result);
            }
            super.onFinish(name, target, context, result);
        }
    }

    /** Notes the name of every property that was bound from a value, so that warnings can tell set from default. */
    private static final class Recording extends AbstractBindHandler {

        private final Set<String> names;

        Recording(Set<String> names) {
            this.names = names;
        }

        @Override
        public Object onSuccess(
                ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result) {
            names.add(name.toString());
            return super.onSuccess(name, target, context, result);
        }
    }
}
