package io.observatory.proxycore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reading an operator's Xray file, and the core configuration written from it. */
class CoreFileTest {

    @TempDir
    Path dir;

    private CoreFile read(String json) throws IOException {
        return CoreFile.read(Files.writeString(dir.resolve("config.json"), json), "observatory.core.config-file");
    }

    @Test
    void readWhenOutboundsOfEveryKindThenTaggedProxiesProbedAndTheRestCopiedWithComments() throws IOException {
        CoreFile file = read("""
                // Xray allows comments
                {"outbounds": [
                   {"tag": "proxy-a", "protocol": "VLESS", "settings": {}, "streamSettings": {"network": "ws"}},
                   {"protocol": "freedom"},
                   {"tag": "block", "protocol": "blackhole"},
                   {"tag": "proxy-a", "protocol": "vmess"},
                   {"tag": "chain", "protocol": "trojan", "proxySettings": {"tag": "proxy-a"}}
                 ],
                 "transport": {"tcpSettings": {}},
                 "observatory": {"subjectSelector": ["proxy-"], "probeURL": "http://probe.test/", "probeInterval": "5s",
                                 "enableConcurrency": true}}
                """);

        assertThat(file.usable()).isTrue();
        assertThat(file.probed()).extracting(CoreFile.CoreOutbound::tag).containsExactly("proxy-a", "chain");
        assertThat(file.probed().get(0).protocol()).isEqualTo("vless");
        assertThat(file.probed()
                        .get(0)
                        .json()
                        .path("streamSettings")
                        .path("network")
                        .asString())
                .isEqualTo("ws");
        assertThat(file.others()).hasSize(2);
        assertThat(file.transport()).isNotNull();
        assertThat(file.problems())
                .containsExactly("observatory.core.config-file: " + dir.resolve("config.json")
                        + ": outbounds[3]: the tag \"proxy-a\" again (expected: unique tags); left out");
        assertThat(file.observer())
                .isEqualTo(Map.of(
                        "standard.subject-selector[0]", "proxy-",
                        "standard.probe-url", "http://probe.test/",
                        "standard.probe-interval", "5s",
                        "standard.enable-concurrency", "true"));
    }

    @Test
    void readWhenBurstObservatoryThenItsPingConfigInKebabCase() throws IOException {
        CoreFile file = read("""
                {"outbounds": [], "burstObservatory": {"subjectSelector": ["a"],
                  "pingConfig": {"destination": "http://probe.test/", "httpMethod": "HEAD", "sampling": 3}}}
                """);

        assertThat(file.observer())
                .containsEntry("burst.ping-config.http-method", "HEAD")
                .containsEntry("burst.ping-config.sampling", "3")
                .containsEntry("burst.subject-selector[0]", "a");
    }

    @Test
    void readWhenNotJsonOrNoOutboundsThenUnusableWithOneLineNamingTheFile() throws IOException {
        CoreFile broken = read("{\"outbounds\": [ oops");
        assertThat(broken.usable()).isFalse();
        assertThat(broken.problems())
                .singleElement()
                .asString()
                .startsWith("observatory.core.config-file: " + dir.resolve("config.json") + ": not valid JSON: ");

        CoreFile empty = read("{\"inbounds\": []}");
        assertThat(empty.problems())
                .singleElement()
                .asString()
                .endsWith(": no \"outbounds\" array (expected: an" + " Xray or v2ray JSON configuration)");

        CoreFile missing = CoreFile.read(dir.resolve("absent.json"), "observatory.core.config-file");
        assertThat(missing.problems()).singleElement().asString().contains("absent.json: cannot be read: ");
    }

    @Test
    void maskedWhenTheCoreQuotesAValueOfTheObjectThenThatValueIsMaskedButNotTheTagOrProtocol() {
        CoreFile.CoreOutbound outbound = CoreFile.outbound(
                "s1/main",
                "{\"protocol\": \"vmess\", \"settings\": {\"vnext\": [{\"address\": \"s1.example.net\","
                        + " \"users\": [{\"id\": \"not-a-uuid-secret\"}]}]}}");

        assertThat(outbound.masked("failed to build outbound s1/main (vmess) > common/uuid: invalid UUID:"
                        + " not-a-uuid-secret at s1.example.net"))
                .isEqualTo("failed to build outbound s1/main (vmess) > common/uuid: invalid UUID: ****** at ******");
        assertThat(outbound.json().path("tag").asString()).isEqualTo("s1/main");
    }

    @Test
    void directoryWhenItExistsButIsNotPrivateThenOneLineAndNoUse() throws IOException {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        ProxyCoreSettings settings = new ProxyCoreSettings(
                "/usr/bin/v2ray",
                "/dev/null",
                ProxyCoreSettings.CommandLine.AUTO,
                shared.toString(),
                java.time.Duration.ofSeconds(1),
                java.time.Duration.ofSeconds(30),
                "warning");

        assertThatThrownBy(() -> CoreFiles.directory(settings))
                .hasMessageContaining("observatory.core.work-directory: " + shared + " is not a private directory")
                .hasMessageContaining("with mode 0700; it is rwxr-xr-x");
        Path fresh = dir.resolve("fresh");
        ProxyCoreSettings made = new ProxyCoreSettings(
                "/usr/bin/v2ray",
                "/dev/null",
                ProxyCoreSettings.CommandLine.AUTO,
                fresh.toString(),
                java.time.Duration.ofSeconds(1),
                java.time.Duration.ofSeconds(30),
                "warning");
        assertThat(CoreFiles.directory(made)).isEqualTo(fresh);
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)))
                .isEqualTo("rwx------");
    }

    @Test
    void kebabWhenXrayKeysThenSpringNames() {
        assertThat(CoreFile.kebab("probeURL")).isEqualTo("probe-url");
        assertThat(CoreFile.kebab("subjectSelector")).isEqualTo("subject-selector");
        assertThat(CoreFile.kebab("httpMethod")).isEqualTo("http-method");
        assertThat(CoreFile.kebab("timeout")).isEqualTo("timeout");
    }

    @Test
    void configWhenWrittenThenOneAuthenticatedLoopbackInboundAndOneRulePerOutboundAndOutboundsVerbatim()
            throws IOException {
        CoreFile file = read("""
                {"outbounds": [{"tag": "proxy-a", "protocol": "vmess", "mux": {"enabled": true}},
                               {"tag": "proxy-b", "protocol": "shadowsocks"},
                               {"tag": "block", "protocol": "blackhole"}]}
                """);
        CoreInbounds inbounds = new CoreInbounds();

        JsonNode config = JsonMapper.builder()
                .build()
                .readTree(CoreConfig.json(file.probed(), file.others(), file.transport(), inbounds::of, "warning"));

        assertThat(config.path("inbounds")).hasSize(2);
        JsonNode first = config.path("inbounds").get(0);
        assertThat(first.path("listen").asString()).isEqualTo("127.0.0.1");
        assertThat(first.path("port").asInt()).isEqualTo(inbounds.of("proxy-a").port());
        assertThat(first.path("settings").path("auth").asString()).isEqualTo("password");
        assertThat(first.path("settings").path("accounts").get(0).path("pass").asString())
                .isEqualTo(inbounds.of("proxy-a").password())
                .hasSizeGreaterThanOrEqualTo(32);
        assertThat(config.path("routing")
                        .path("rules")
                        .get(1)
                        .path("inboundTag")
                        .get(0)
                        .asString())
                .isEqualTo("observatory-in-1");
        assertThat(config.path("routing")
                        .path("rules")
                        .get(1)
                        .path("outboundTag")
                        .asString())
                .isEqualTo("proxy-b");
        assertThat(config.path("outbounds").get(0))
                .isEqualTo(file.probed().get(0).json());
        assertThat(config.path("outbounds")).hasSize(3);
        assertThat(config.path("log").path("access").asString()).isEqualTo("/dev/null");
        assertThat(inbounds.of("proxy-a"))
                .as("the same inbound for the life of the process")
                .isEqualTo(inbounds.of("proxy-a"));
        assertThat(inbounds.of("proxy-a").toString())
                .doesNotContain(inbounds.of("proxy-a").password());
    }
}
