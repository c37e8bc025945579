package io.observatory.mesh.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.config.Protocol;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshRules;
import io.observatory.testing.Configs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code observatory.mesh}: roles, the hub's fleet, the witness's hubs and credential, and one line per mistake. */
class MeshSettingsTest {

    @TempDir
    Path directory;

    /** A hub of two servers and two witnesses; {@code extra} is appended below {@code hub:} (six spaces in). */
    private String hub(String extra) {
        return """
                observatory:
                  standard: { subject-selector: [ "" ], probe-url: "http://127.0.0.1:1/" }
                  mesh:
                    hub:
                      servers:
                        - name: s1
                          route: de
                          entry-points: [ { name: main, protocol: socks, address: 127.0.0.1, port: 1080 } ]
                        - name: s2
                          route: de
                          entry-points: [ { name: main, protocol: http, address: 127.0.0.1, port: 3128 } ]
                      witnesses:
                        - { name: w1, site: de, server: s1, token-file: %s }
                        - { name: w2, site: nl, token-file: %s }
                """.formatted(token("w1"), token("w2")) + extra;
    }

    /** A witness-only instance; {@code body} is the witness section, its lines six spaces in. */
    private static String witness(String body) {
        return "observatory:\n  mesh:\n    witness:\n" + body;
    }

    private String token(String name) {
        try {
            return Files.writeString(directory.resolve(name + ".token"), "token-of-" + name)
                    .toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final String S1_ENTRY = "{ name: main, protocol: socks, address: 127.0.0.1, port: 1080 }";

    @Test
    void bindWhenEntryPointIsAnXrayOutboundThenItsObjectIsKeptAndNeverPrinted() {
        String vmess = "{\"protocol\": \"vmess\", \"settings\": {\"vnext\": []}}";
        ObservatoryConfig config =
                Configs.yaml(hub("").replace(S1_ENTRY, "{ name: main, protocol: xray, outbound: '" + vmess + "' }"));

        EntryPointSettings entry = config.section(MeshSettings.SECTION)
                .hub()
                .servers()
                .get(0)
                .entryPoints()
                .get(0);
        assertThat(entry.outbound()).isEqualTo(vmess);
        assertThat(entry.toString()).isEqualTo("EntryPointSettings[main, xray outbound]");
        assertThat(entry.outbound("s1").protocol()).isEqualTo(Protocol.XRAY);
    }

    @Test
    void bindWhenAssignmentIsKPerServerThenEachWitnessIsHandedItsServersAndTheQuorumMustFitK() {
        MeshSettings mesh = Configs.yaml(
                        hub("      assignment: k-per-server\n      witnesses-per-server: 1\n      quorum: 1\n"))
                .section(MeshSettings.SECTION);

        assertThat(mesh.hub().assignmentInForce()).isEqualTo(HubSettings.Assignment.K_PER_SERVER);
        assertThat(mesh.hub().witnessAssignment(mesh.fleet()).witnessesOf("s1"))
                .as("w1 runs on s1: w2 is its one witness")
                .containsExactly("w2");
        assertThat(Configs.yamlRejection(hub("      assignment: k-per-server\n      witnesses-per-server: 1\n")))
                .isEqualTo("observatory.mesh.hub.quorum: 2 (expected: at most observatory.mesh.hub.witnesses-per-server"
                        + " (1) with assignment k-per-server: no more witnesses probe a server)");
        assertThat(Configs.yamlRejection(hub("      assignment: half\n")))
                .startsWith("observatory.mesh.hub.assignment: half (expected: ");
        assertThat(Configs.yaml(hub("")).section(MeshSettings.SECTION).hub().assignmentInForce())
                .as("two servers: full by default")
                .isEqualTo(HubSettings.Assignment.FULL);
    }

    @Test
    void bindWhenXrayEntryPointIsWrongThenOneLineThatNeverQuotesTheObject() {
        assertThat(Configs.yamlRejection(hub("").replace(S1_ENTRY, "{ name: main, protocol: xray }")))
                .isEqualTo("observatory.mesh.hub.servers[0].entry-points[0].outbound: (none) (expected: an Xray"
                        + " outbound object as JSON text, since the protocol is xray)");
        assertThat(Configs.yamlRejection(hub("").replace(
                                S1_ENTRY, "{ name: main, protocol: xray, outbound: '{\"id\": \"secret-uuid\"'}")))
                .isEqualTo("observatory.mesh.hub.servers[0].entry-points[0].outbound: ****** (expected: an Xray"
                        + " outbound object as JSON text, e.g. {\"protocol\": \"vmess\", \"settings\": {...}})");
        assertThat(Configs.yamlRejection(
                        hub("").replace("port: 1080 }", "port: 1080, outbound: '{\"protocol\": \"vmess\"}' }")))
                .isEqualTo("observatory.mesh.hub.servers[0].entry-points[0].outbound: ****** (expected: nothing unless"
                        + " the protocol is xray)");
    }

    @Test
    void bindWhenEntryPointIsTlsThenSniAndAlpnReachItsOutbound() {
        ObservatoryConfig config = Configs.yaml(
                hub("").replace(
                                S1_ENTRY,
                                "{ name: main, protocol: tls, address: 127.0.0.1, port: 443, sni: cdn.example.com, alpn: [h2] }"));

        assertThat(config.observedOutbounds())
                .filteredOn(outbound -> outbound.tag().equals("s1/main"))
                .singleElement()
                .satisfies(outbound -> {
                    assertThat(outbound.serverName()).isEqualTo("cdn.example.com");
                    assertThat(outbound.alpn()).containsExactly("h2");
                    assertThat(outbound.describe()).isEqualTo("tls 127.0.0.1:443 sni cdn.example.com");
                });
    }

    @Test
    void bindWhenTheOldRoleKeyIsSetThenOneLineListsTheSections() {
        assertThat(Configs.rejection("mesh.role=hub"))
                .isEqualTo("observatory.mesh.role: hub (expected: a known property of observatory.mesh: hub, witness)");
    }

    @Test
    void bindWhenNothingSetThenNoMeshAndTheDefaultRules() {
        MeshSettings mesh = Configs.of().section(MeshSettings.SECTION);

        assertThat(mesh.role()).isEqualTo(MeshRole.OFF);
        assertThat(mesh.rules()).isEqualTo(new MeshRules(3, 2, 0, 0.5, Duration.ofSeconds(30)));
        assertThat(mesh.initialReportInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(Configs.of().observedOutbounds()).isEmpty();
    }

    @Test
    void bindWhenHubThenFleetAndEntryPointsBecomeOutboundsTaggedServerSlashEntry() {
        ObservatoryConfig config = Configs.yaml(hub("      report-interval: 2s\n"));
        MeshSettings mesh = config.section(MeshSettings.SECTION);

        assertThat(mesh.role()).isEqualTo(MeshRole.HUB);
        assertThat(mesh.fleet())
                .isEqualTo(new MeshFleet(
                        List.of(
                                new MeshFleet.Server("s1", "de", List.of("main")),
                                new MeshFleet.Server("s2", "de", List.of("main"))),
                        List.of(
                                new MeshFleet.Witness("w1", "de", "s1", false),
                                new MeshFleet.Witness("w2", "nl", null, false))));
        assertThat(config.observedOutbounds())
                .extracting(Outbound::tag, Outbound::describe)
                .containsExactly(tuple("s1/main", "socks 127.0.0.1:1080"), tuple("s2/main", "http 127.0.0.1:3128"));
        assertThat(mesh.rules().noDataAfter()).isEqualTo(Duration.ofSeconds(6));
        assertThat(mesh.hub().probe().probeInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(mesh.hub().probe().timeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void bindWhenHubAndWitnessSetThenAHubThatIsOneOfItsWitnesses() {
        MeshSettings mesh = Configs.yaml(hub("    witness: { name: w2 }\n")).section(MeshSettings.SECTION);

        assertThat(mesh.role()).isEqualTo(MeshRole.HUB_AND_WITNESS);
    }

    @Test
    void bindWhenTheLocalWitnessIsNotInTheFleetThenOneLineNamesTheList() {
        assertThat(Configs.yamlRejection(hub("    witness: { name: w9 }\n")))
                .isEqualTo(
                        "observatory.mesh.witness.name: w9 (expected: the name of one of observatory.mesh.hub.witnesses,"
                                + " as this hub is one of its witnesses)");
    }

    @Test
    void bindWhenTheLocalWitnessNamesHubsThenOneLineSaysItReportsToItself() {
        assertThat(Configs.yamlRejection(hub("    witness: { name: w2, hubs: [ \"127.0.0.1:9090\" ] }\n")))
                .isEqualTo("observatory.mesh.witness.hubs: set while this instance is a hub (expected: nothing: a hub"
                        + " that is one of its witnesses reports to itself)");
    }

    @Test
    void bindWhenHubHasNoServersThenOneLineAsksForOne() {
        assertThat(Configs.yamlRejection("observatory:\n  mesh:\n    hub: { report-interval: 5s }\n"))
                .isEqualTo("observatory.mesh.hub.servers: none (expected: at least one server)");
    }

    @Test
    void bindWhenWitnessNamesAnUnknownServerThenOneLineListsTheServers() {
        assertThat(Configs.yamlRejection(hub("").replace("server: s1,", "server: s9,")))
                .isEqualTo("observatory.mesh.hub.witnesses[0].server: s9 (expected: the name of one of"
                        + " observatory.mesh.hub.servers [s1, s2], or nothing for an external vantage point)");
    }

    @Test
    void bindWhenWitnessHasNoCredentialThenOneLineAsksForOne() {
        String document = hub("").replace(", token-file: " + directory.resolve("w2.token"), "");

        assertThat(Configs.yamlRejection(document))
                .isEqualTo("observatory.mesh.hub.witnesses[1]: no credential"
                        + " (expected: a token-file, token-env or certificate-subject, by which the hub recognises the"
                        + " witness)");
    }

    @Test
    void bindWhenTheLocalWitnessHasNoCredentialThenItNeedsNone() {
        String document =
                hub("    witness: { name: w2 }\n").replace(", token-file: " + directory.resolve("w2.token"), "");

        assertThat(Configs.yaml(document).section(MeshSettings.SECTION).role()).isEqualTo(MeshRole.HUB_AND_WITNESS);
    }

    @Test
    void bindWhenEntryPointNameHasASlashThenOneLineNamesIt() {
        assertThat(Configs.yamlRejection(hub("").replace("name: main, protocol: socks", "name: a/b, protocol: socks")))
                .isEqualTo("observatory.mesh.hub.servers[0].entry-points[0].name: a/b (expected: a name of ASCII"
                        + " letters, digits, '.', '_' and '-')");
    }

    @Test
    void bindWhenEntryPointLacksItsPortThenTheOutboundRuleNamesIt() {
        assertThat(Configs.yamlRejection(hub("").replace(", port: 3128", "")))
                .isEqualTo("observatory.mesh.hub.servers[1].entry-points[0].port: (none) (expected: 1-65535)");
    }

    @Test
    void bindWhenAnOutboundTagIsAnEntryPointsTagThenOneLineNamesTheClash() {
        String document =
                hub("").replace("  mesh:\n", "  outbounds: [ { tag: s2/main, protocol: direct } ]\n  mesh:\n");

        assertThat(Configs.yamlRejection(document))
                .isEqualTo("observatory.outbounds[0].tag: s2/main (expected: a tag no other outbound has; the outbound"
                        + " of observatory.mesh.hub.servers[1].entry-points[0] is also s2/main)");
    }

    @Test
    void bindWhenWitnessWithoutHubsOrTokenThenOneLineEach() {
        assertThat(Configs.yamlRejection(witness("      name: w1\n      token-file: " + token("w1") + "\n")))
                .isEqualTo("observatory.mesh.witness.hubs: none (expected: at least one hub, host:port with a port"
                        + " 1-65535, e.g. 127.0.0.1:9090 or [::1]:9090)");
        assertThat(Configs.yamlRejection(witness("      name: w1\n      hubs: [ \"hub:9090\" ]\n")))
                .isEqualTo("observatory.mesh.witness: a witness without a credential (expected: a credential the hub"
                        + " recognises: the file or variable holding this witness's bearer token"
                        + " (observatory.mesh.witness.token-file or observatory.mesh.witness.token-env), or a client"
                        + " certificate (observatory.mesh.witness.hub-tls.certificate-chain))");
    }

    @Test
    void bindWhenTheTokenWouldGoToARemoteHubInClearTextThenOneLineAsksForTlsOrTheOptIn() {
        String plaintext = "      name: w1\n      token-file: " + token("w1") + "\n      hubs: [ \"127.0.0.1:9090\","
                + " \"hub.mesh.svc:9090\" ]\n";

        assertThat(Configs.yamlRejection(witness(plaintext)))
                .isEqualTo("observatory.mesh.witness.hubs[1]: hub.mesh.svc:9090 (expected: a hub reached over TLS"
                        + " (observatory.mesh.witness.hub-tls.enabled: true), as the bearer token goes with every"
                        + " report; or observatory.mesh.witness.token-over-plaintext: true on a private network)");
        assertThat(Configs.yaml(witness(plaintext + "      token-over-plaintext: true\n"))
                        .section(MeshSettings.SECTION)
                        .witness()
                        .tokenOverPlaintext())
                .isTrue();
        assertThat(Configs.yaml(witness(plaintext + "      hub-tls: { enabled: true }\n"))
                        .section(MeshSettings.SECTION)
                        .role())
                .isEqualTo(MeshRole.WITNESS);
    }

    @Test
    void bindWhenHubAddressHasNoPortThenOneLineNamesIt() {
        assertThat(Configs.yamlRejection(witness(
                        "      name: w1\n      token-file: " + token("w1") + "\n      hubs: [ \"hub.mesh.svc\" ]\n")))
                .isEqualTo("observatory.mesh.witness.hubs[0]: hub.mesh.svc (expected: host:port with a port 1-65535,"
                        + " e.g. 127.0.0.1:9090 or [::1]:9090)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            series without an exporter | series: [ vpn_users ]                          | observatory.mesh.witness.metrics.scrape-url: none (expected: the URL of the exporter to read metrics.series from)
            an exporter without series | scrape-url: "http://127.0.0.1:9100/metrics"   | observatory.mesh.witness.metrics.series: none (expected: at least one metric name to read from metrics.scrape-url)
            a name that is no metric   | { scrape-url: "http://127.0.0.1:9100/metrics", series: [ "9lives" ] } | observatory.mesh.witness.metrics.series[0]: 9lives (expected: a Prometheus metric name, letters, digits, _ and :, not starting with a digit)
            an exporter URL that is no URL | { scrape-url: "127.0.0.1:9100", series: [ vpn_users ] } | observatory.mesh.witness.metrics.scrape-url: 127.0.0.1:9100 (expected: an absolute http or https URL with a host, e.g. https://example.com/generate_204)
            """)
    void bindWhenTheExporterSettingsDoNotFitThenOneLineNamesTheProperty(String what, String metrics, String line) {
        String settings = metrics.startsWith("{") ? metrics : "{ " + metrics + " }";

        assertThat(Configs.yamlRejection(witness("      name: w1\n      token-file: " + token("w1")
                        + "\n      hubs: [ \"127.0.0.1:9090\" ]\n      metrics: " + settings + "\n")))
                .as(what)
                .isEqualTo(line);
    }

    @Test
    void bindWhenSelfCheckSetsTwoKindsThenOneLineSaysExactlyOne() {
        assertThat(Configs.yamlRejection(witness("      name: w1\n      token-file: " + token("w1")
                        + "\n      hubs: [ \"127.0.0.1:9090\" ]\n      checks:\n"
                        + "        - { tcp: \"127.0.0.1:443\", pid-file: /run/x.pid }\n")))
                .isEqualTo("observatory.mesh.witness.checks[0].pid-file: tcp and pid-file (expected: exactly one of"
                        + " tcp, http and pid-file)");
    }

    @Test
    void bindWhenUnreliableShareAboveOneThenOneLineNamesTheRange() {
        assertThat(Configs.yamlRejection(hub("      unreliable-share: 1.5\n")))
                .isEqualTo("observatory.mesh.hub.unreliable-share: 1.5 (expected: > 0 and <= 1)");
    }
}
