package io.observatory.proxycore;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfigBinder;
import io.observatory.config.Outbound;
import io.observatory.config.Protocol;
import io.observatory.config.StandardObserverSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * {@code observatory.core} in the one configuration pipeline, with Debian's v2ray as the binary: the file's outbounds
 * become outbounds of their tags, and its {@code observatory} block is the observer only when the operator configured
 * none.
 */
class ProxyCoreSectionTest {

    @TempDir
    Path dir;

    private Path file(String observatory) throws IOException {
        return Files.writeString(dir.resolve("config.json"), """
                {"outbounds": [{"tag": "proxy-a", "protocol": "vmess", "settings": {"vnext": [{"address": "127.0.0.1",
                   "port": 1, "users": [{"id": "b831381d-6324-4d53-ad4f-8cda48b30811", "alterId": 0}]}]}}],
                 "observatory": %s}
                """.formatted(observatory));
    }

    private ObservatoryConfigBinder.Bound bind(Path file, String... properties) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("observatory.core.binary", "/usr/bin/v2ray");
        values.put("observatory.core.config-file", file.toString());
        values.put("observatory.core.work-directory", dir.resolve("work").toString());
        for (String property : properties) {
            int equals = property.indexOf('=');
            values.put("observatory." + property.substring(0, equals), property.substring(equals + 1));
        }
        StandardEnvironment environment = new StandardEnvironment();
        List.copyOf(environment.getPropertySources().stream()
                        .map(source -> source.getName())
                        .toList())
                .forEach(environment.getPropertySources()::remove);
        environment.getPropertySources().addFirst(new MapPropertySource("test", values));
        try (ObservatoryConfigBinder binder =
                new ObservatoryConfigBinder(List.of(new ProxyCoreSection(new CoreLayouts())), name -> null)) {
            return binder.bind(environment);
        }
    }

    @Test
    void bindWhenNoObserverOfOurOwnThenTheFilesBlockWithXraysKeysAndItsOutboundsByTag() throws IOException {
        Path file = file("{\"subjectSelector\": [\"proxy-\"], \"probeURL\": \"http://127.0.0.1:9/\","
                + " \"probeInterval\": \"30s\"}");

        ObservatoryConfigBinder.Bound bound = bind(file);

        StandardObserverSettings standard = bound.config().standard();
        assertThat(standard).isNotNull();
        assertThat(standard.subjectSelector()).containsExactly("proxy-");
        assertThat(standard.probeUrl()).isEqualTo("http://127.0.0.1:9/");
        assertThat(standard.probeInterval()).hasSeconds(30);
        Outbound outbound = bound.config().observedOutbounds().get(0);
        assertThat(outbound.tag()).isEqualTo("proxy-a");
        assertThat(outbound.protocol()).isEqualTo(Protocol.SOCKS);
        assertThat(outbound.address()).isEqualTo("127.0.0.1");
        assertThat(outbound.authenticated()).isTrue();
    }

    @Test
    void bindWhenAnObserverOfOurOwnThenTheFilesBlockIsIgnored() throws IOException {
        Path file = file("{\"subjectSelector\": [\"proxy-\"], \"probeURL\": \"http://127.0.0.1:9/\"}");

        StandardObserverSettings standard = bind(
                        file, "standard.subject-selector=proxy-a", "standard.probe-url=http://127.0.0.1:7/")
                .config()
                .standard();

        assertThat(standard.probeUrl()).isEqualTo("http://127.0.0.1:7/");
    }

    @Test
    void bindWhenTheFilesBlockBreaksARuleThenNoObserverAndOneWarningNamingTheSection() throws IOException {
        Path file = file("{\"subjectSelector\": [\"proxy-\"], \"probeInterval\": \"ten seconds\"}");

        ObservatoryConfigBinder.Bound bound = bind(file);

        assertThat(bound.config().standard()).isNull();
        assertThat(bound.warnings())
                .anyMatch(warning -> warning.startsWith("observatory.core: its observer is not used, as"
                        + " observatory.standard.probe-interval: ten seconds (expected: a duration"));
        assertThat(bound.config().observedOutbounds()).extracting(Outbound::tag).containsExactly("proxy-a");
    }
}
