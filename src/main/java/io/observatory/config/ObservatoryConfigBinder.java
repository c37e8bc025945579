package io.observatory.config;

import io.observatory.health.ExpectedStatus;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.validation.Validator;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;

/**
 * The one configuration pipeline, for start-up and for every reload: binds {@code observatory.*} from an environment
 * with Spring Boot's {@link Binder} — each capability's {@link ConfigSection} at {@code observatory.<key>}, then the
 * core's {@link CoreSettings} — and validates every record while binding, as Spring Boot binds {@code @Validated}
 * configuration properties: Bean Validation's field constraints and each {@link Checked} record's rules
 * ({@link ConfigChecks}). Durations read as Go durations ({@link GoDurationConverter}); binding is strict: an unknown
 * key under {@code observatory} (environment variables and system properties exempt, as in Spring Boot) or a value of
 * the wrong shape ({@link ShapeCheck}) stops it, and so does the first record, depth first in declaration order, that
 * breaks a rule. Every failure is one {@link InvalidConfigException}: an unknown key first, then the core's first
 * problem, then the first section's.
 */
public final class ObservatoryConfigBinder implements AutoCloseable {

    /** The configuration's prefix. */
    public static final String PREFIX = "observatory";

    private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of(PREFIX);
    private static final ConversionService CONVERSIONS = conversions();

    private final List<ConfigSection<?>> sections;
    private final Function<String, @Nullable String> environmentVariables;
    private final ValidatorFactory validation;
    private final SpringValidatorAdapter beanValidation;

    /**
     * A binder whose validation reads the process's environment variables.
     *
     * @param sections the capabilities' sections, bound with the core's settings
     */
    public ObservatoryConfigBinder(List<? extends ConfigSection<?>> sections) {
        this(sections, System::getenv);
    }

    /**
     * @param sections             the capabilities' sections, bound with the core's settings; keys unique
     * @param environmentVariables looks up an environment variable by name, {@code null} when unset; validation uses
     *                             it to check that a token's variable is set
     * @throws IllegalArgumentException when two sections have the same key, or a key is one of the core's
     */
    public ObservatoryConfigBinder(
            List<? extends ConfigSection<?>> sections, Function<String, @Nullable String> environmentVariables) {
        Set<String> keys = new HashSet<>();
        Set<String> coreKeys = PropertyExpectations.keysOf(CoreSettings.class);
        for (ConfigSection<?> section : sections) {
            if (!keys.add(section.key()) || coreKeys.contains(section.key())) {
                throw new IllegalArgumentException("section observatory." + section.key()
                        + " (expected: a key no other section and no core setting has)");
            }
        }
        this.sections = List.copyOf(sections);
        this.environmentVariables = environmentVariables;
        this.validation = Validation.byProvider(HibernateValidator.class)
                .configure()
                .messageInterpolator(new ParameterMessageInterpolator())
                .buildValidatorFactory();
        this.beanValidation = new SpringValidatorAdapter(validation.getValidator());
    }

    /**
     * Binds and validates the configuration a process starts with.
     *
     * @param environment Spring's environment
     * @return the configuration and the warnings to log
     * @throws InvalidConfigException for the first value that does not convert, the first unknown key, a value of the
     *                                wrong shape, or the first record that breaks a rule
     */
    public Bound bind(ConfigurableEnvironment environment) {
        return bind(environment, true);
    }

    /**
     * Binds and validates a reloaded configuration, as {@link #bind} does but for the checks of settings that only a
     * start applies ({@link Problems#startUp}).
     *
     * @throws InvalidConfigException as {@link #bind} does
     */
    public Bound bindReload(ConfigurableEnvironment environment) {
        return bind(environment, false);
    }

    private Bound bind(ConfigurableEnvironment environment, boolean startUp) {
        Binder binder = new Binder(
                ConfigurationPropertySources.get(environment),
                new PropertySourcesPlaceholdersResolver(environment),
                CONVERSIONS);
        Set<String> set = new HashSet<>();
        Recording recording = new Recording(set);
        Validator[] validators = {beanValidation, new ConfigChecks(environmentVariables, startUp)};
        List<InvalidConfigException> failures = new ArrayList<>();
        Map<String, Object> bound = new LinkedHashMap<>();
        List<ConfigurationPropertyName> sectionNames = new ArrayList<>();
        for (ConfigSection<?> section : sections) {
            ConfigurationPropertyName name = ROOT.append(section.key());
            sectionNames.add(name);
            Object settings = bind(
                    binder,
                    name,
                    section.type(),
                    List.of(),
                    new StrictKeys(recording, List.of()),
                    validators,
                    failures);
            if (settings != null) {
                bound.put(section.key(), settings);
            }
        }
        // The sections' keys are theirs to check: a section that failed half-way has not bound all of its own.
        List<String> sectionKeys = sections.stream().map(ConfigSection::key).toList();
        CoreSettings core = bind(
                withoutSections(environment, List.of(), sectionNames),
                ROOT,
                CoreSettings.class,
                sectionKeys,
                new StrictKeys(recording, sectionNames),
                validators,
                failures);
        if (core == null || !failures.isEmpty()) {
            throw failures.stream()
                    .filter(failure ->
                            failure.getCause() instanceof BindException bind && ConfigReports.unknownKey(bind))
                    .findFirst()
                    .orElse(failures.get(0));
        }
        List<String> observerWarnings = new ArrayList<>();
        if (core.standard() == null && core.burst() == null) {
            core = withSectionObserver(
                    environment, core, bound, sectionKeys, sectionNames, validators, observerWarnings);
        }
        Map<String, Outbound> added = new LinkedHashMap<>();
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (ConfigSection<?> section : sections) {
            added.putAll(outbounds(section, bound.get(section.key())));
            groups.putAll(groups(section, bound.get(section.key())));
        }
        rejectClashes(core, added);
        ObservatoryConfig config = new ObservatoryConfig(core, bound, List.copyOf(added.values()), groups);
        List<String> warnings = new ArrayList<>(ConfigWarnings.of(config, sections, set::contains));
        warnings.addAll(observerWarnings);
        for (ConfigSection<?> section : sections) {
            warnings.addAll(warnings(section, bound.get(section.key())));
        }
        return new Bound(config, warnings);
    }

    /**
     * Binds one record at {@code name}; a failure is added to {@code failures} (the core's first, being the first to
     * report of two) and the result is then {@code null}. {@code sectionKeys} are the keys bound beside the record at
     * {@code name}, named in the report of an unknown key.
     */
    private static <T> @Nullable T bind(
            Binder binder,
            ConfigurationPropertyName name,
            Class<T> type,
            List<String> sectionKeys,
            StrictKeys strict,
            Validator[] validators,
            List<InvalidConfigException> failures) {
        BindHandler handler =
                new ShapeCheck(new UnknownKeysFirst(new ValidationBindHandler(strict, validators), strict));
        try {
            return binder.bindOrCreate(name, Bindable.of(type), handler);
        } catch (BindException e) {
            InvalidConfigException report = ConfigReports.of(e, new PropertyExpectations(name, type, sectionKeys));
            InvalidConfigException failure = report != null
                    ? report
                    : new InvalidConfigException(
                            new ReportLine(e.getName().toString(), "(not usable)", String.valueOf(e.getMessage())),
                            null,
                            e);
            if (type == CoreSettings.class) {
                failures.add(0, failure);
            } else {
                failures.add(failure);
            }
            return null;
        }
    }

    /**
     * The core's settings with the observer the first section that defines one gives ({@link ConfigSection#observer}),
     * its properties bound after every property source of the environment and checked like the operator's own; when
     * they break a rule, {@code core} as it is and a warning naming the section.
     */
    private CoreSettings withSectionObserver(
            ConfigurableEnvironment environment,
            CoreSettings core,
            Map<String, Object> bound,
            List<String> sectionKeys,
            List<ConfigurationPropertyName> sectionNames,
            Validator[] validators,
            List<String> warnings) {
        for (ConfigSection<?> section : sections) {
            Map<String, Object> observer = observer(section, bound.get(section.key()));
            if (observer.isEmpty()) {
                continue;
            }
            Map<String, Object> properties = new LinkedHashMap<>();
            observer.forEach((key, value) -> properties.put(PREFIX + "." + key, value));
            List<InvalidConfigException> failures = new ArrayList<>();
            CoreSettings withObserver = bind(
                    withoutSections(environment, List.of(new MapConfigurationPropertySource(properties)), sectionNames),
                    ROOT,
                    CoreSettings.class,
                    sectionKeys,
                    new StrictKeys(new Recording(new HashSet<>()), sectionNames),
                    validators,
                    failures);
            if (withObserver != null && failures.isEmpty()) {
                return withObserver;
            }
            warnings.add(PREFIX + "." + section.key() + ": its observer is not used, as "
                    + (failures.isEmpty() ? "it did not bind" : failures.get(0).getMessage()));
            return core;
        }
        return core;
    }

    /** Rejects a configured outbound whose tag is one a section adds (a mesh entry point's). */
    private static void rejectClashes(CoreSettings core, Map<String, Outbound> added) {
        Map<String, String> definedBy = new HashMap<>();
        added.forEach((property, outbound) -> definedBy.putIfAbsent(outbound.tag(), property));
        for (int i = 0; i < core.outbounds().size(); i++) {
            String tag = core.outbounds().get(i).tag();
            String property = definedBy.get(tag);
            if (property != null) {
                throw new InvalidConfigException(
                        new ReportLine(
                                PREFIX + ".outbounds[" + i + "].tag",
                                tag,
                                "a tag no other outbound has; the outbound of " + property + " is also " + tag),
                        null,
                        null);
            }
        }
    }

    @SuppressWarnings("unchecked") // bound from section.type(), so of the section's type
    private static <T> Map<String, Outbound> outbounds(ConfigSection<T> section, @Nullable Object settings) {
        return settings == null ? Map.of() : section.outbounds((T) settings);
    }

    @SuppressWarnings("unchecked") // bound from section.type(), so of the section's type
    private static <T> Map<String, List<String>> groups(ConfigSection<T> section, @Nullable Object settings) {
        return settings == null ? Map.of() : section.groups((T) settings);
    }

    @SuppressWarnings("unchecked") // bound from section.type(), so of the section's type
    private static <T> Map<String, Object> observer(ConfigSection<T> section, @Nullable Object settings) {
        return settings == null ? Map.of() : section.observer((T) settings);
    }

    @SuppressWarnings("unchecked") // bound from section.type(), so of the section's type
    private static <T> List<String> warnings(ConfigSection<T> section, @Nullable Object settings) {
        return settings == null ? List.of() : section.warnings((T) settings);
    }

    /** The files the sections of {@code config} read besides the configuration ({@link ConfigSection#files}). */
    public List<Path> files(ObservatoryConfig config) {
        List<Path> files = new ArrayList<>();
        sections.forEach(section -> files.addAll(files(section, config)));
        return files;
    }

    private static <T> List<Path> files(ConfigSection<T> section, ObservatoryConfig config) {
        return section.files(config.section(section));
    }

    /**
     * The properties of the sections that take effect at start-up only ({@link ConfigSection#startUpOnly}), by full
     * name, e.g. {@code observatory.state.directory}.
     */
    public List<String> startUpOnly() {
        List<String> properties = new ArrayList<>();
        sections.forEach(section ->
                section.startUpOnly().forEach(key -> properties.add(PREFIX + "." + section.key() + "." + key)));
        return properties;
    }

    /**
     * A settings record as bound from no properties at all: every component takes its {@code @DefaultValue}. How a
     * policy section that is not set gets its defaults, from the one place they are written.
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

        private final StrictKeys strict;

        UnknownKeysFirst(BindHandler parent, StrictKeys strict) {
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

    /**
     * A binder of the core's keys: the environment's sources and {@code extra}, without the keys of the sections,
     * which their own binds check. Left in, every section key would be a candidate "unbound" key of the core's strict
     * bind, and Spring looks each one up in a freshly filtered source (O(keys) each): a 1,000-server mesh's 11,000
     * keys took about a minute to bind.
     */
    private static Binder withoutSections(
            ConfigurableEnvironment environment,
            List<ConfigurationPropertySource> extra,
            List<ConfigurationPropertyName> sectionNames) {
        List<ConfigurationPropertySource> sources = new ArrayList<>();
        ConfigurationPropertySources.get(environment).forEach(sources::add);
        sources.addAll(extra);
        List<ConfigurationPropertySource> filtered = new ArrayList<>(sources.size());
        sources.forEach(source -> filtered.add(source.filter(name ->
                sectionNames.stream().noneMatch(section -> section.equals(name) || section.isAncestorOf(name)))));
        return new Binder(filtered, new PropertySourcesPlaceholdersResolver(environment), CONVERSIONS);
    }

    /**
     * Spring Boot's strict binding ({@link NoUnboundElementsBindHandler}) of one record: an unknown key below it
     * stops the bind, but for the keys below {@code excluded} (the sections', which their own binds check).
     */
    private static final class StrictKeys extends AbstractBindHandler {

        private final List<ConfigurationPropertyName> excluded;

        StrictKeys(BindHandler parent, List<ConfigurationPropertyName> excluded) {
            super(new NoUnboundElementsBindHandler(parent, new UnboundElementsSourceFilter()));
            this.excluded = List.copyOf(excluded);
        }

        @Override
        public void onFinish(
                ConfigurationPropertyName name, Bindable<?> target, BindContext context, @Nullable Object result)
                throws Exception {
            try {
                super.onFinish(name, target, context, result);
            } catch (UnboundConfigurationPropertiesException e) {
                Set<ConfigurationProperty> unbound = new TreeSet<>();
                e.getUnboundProperties().stream()
                        .filter(property -> excluded.stream()
                                .noneMatch(section ->
                                        section.equals(property.getName()) || section.isAncestorOf(property.getName())))
                        .forEach(unbound::add);
                if (!unbound.isEmpty()) {
                    throw new UnboundConfigurationPropertiesException(unbound);
                }
            }
        }
    }

    /** Notes the name of every property that was bound from a value, so that warnings can tell set from default. */
    private static final class Recording extends AbstractBindHandler {

        private final Set<String> names;

        Recording(Set<String> names) {
            this.names = names;
        }

        @Override
        public @Nullable Object onSuccess(
                ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result) {
            names.add(name.toString());
            return super.onSuccess(name, target, context, result);
        }
    }
}
