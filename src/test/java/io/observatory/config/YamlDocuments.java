package io.observatory.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

/** Feeds a YAML document to a context as Spring Boot loads an {@code application.yml}, named {@code test.yml}. */
final class YamlDocuments {

    private YamlDocuments() {}

    /** Returns {@code runner} with {@code document} as its first property source. */
    static ApplicationContextRunner withYaml(ApplicationContextRunner runner, String document) {
        return runner.withInitializer(context -> {
            try {
                for (PropertySource<?> source : new YamlPropertySourceLoader()
                        .load(
                                "test.yml",
                                new ByteArrayResource(document.getBytes(StandardCharsets.UTF_8), "test.yml"))) {
                    context.getEnvironment().getPropertySources().addFirst(source);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
