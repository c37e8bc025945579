package io.observatory.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.observatory.config.ApiAuthSettings;
import io.observatory.config.HostPort;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.ObservatoryConfigBinder;
import io.observatory.config.Outbound;
import io.observatory.config.Protocol;
import io.observatory.config.StandardObserverSettings;
import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.ConsecutiveFailuresPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.ProbeIntervals;
import io.observatory.health.TransportFailureRatePolicy;
import io.observatory.mesh.config.FleetServerSettings;
import io.observatory.mesh.config.FleetWitnessSettings;
import io.observatory.mesh.config.HubSettings;
import io.observatory.mesh.config.MeshRole;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.config.WitnessSettings;
import io.observatory.probe.ProbeHeaders;
import io.observatory.testing.Configs;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The Helm chart at {@code helm/observatory}, checked offline with an embedded Helm (helm-java): lint, the objects
 * rendered from the defaults and from {@code src/test/resources/helm/full-values.yaml}, the values schema, and the
 * rendered {@code application.yml} bound and validated by the service's own configuration classes, so that the chart
 * and the service cannot drift apart.
 */
class ObservatoryChartTest {

    private static final Path CHART = Path.of("helm/observatory");
    private static final Path FULL_VALUES = Path.of("src/test/resources/helm/full-values.yaml");
    private static final Path MESH_VALUES = Path.of("src/test/resources/helm/mesh-values.yaml");
    private static final String RELEASE = "obs";
    private static final String NAMESPACE = "observability";
    /** Object names: "<release>-<chart>". */
    private static final String FULLNAME = "obs-observatory";
    /** Native gRPC probes are GA since 1.27; a recent version as a cluster would report it. */
    private static final String KUBE_VERSION = "1.31.0";

    private static final String CONFIG_DIR = "/etc/observatory";
    private static final String CONFIG_FILE = CONFIG_DIR + "/application.yml";

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    @Test
    void lintWhenStrictThenPassesWithoutWarnings() {
        LintResult result = new Helm(CHART).lint().strict().call();

        assertThat(result.isFailed())
                .as("helm lint --strict: %s", result.getMessages())
                .isFalse();
        assertThat(result.getMessages())
                .noneMatch(message -> message.contains("[WARNING]") || message.contains("[ERROR]"));
    }

    @Test
    void chartWhenReadThenAppVersionIsTheReleasePartOfTheProjectVersion() throws Exception {
        Map<String, Object> chart = parseYaml(Files.readString(CHART.resolve("Chart.yaml")));
        String projectVersion = XPathFactory.newInstance()
                .newXPath()
                .evaluate(
                        "/project/version",
                        DocumentBuilderFactory.newInstance()
                                .newDocumentBuilder()
                                .parse(Path.of("pom.xml").toFile()));

        assertThat(chart)
                .containsEntry("apiVersion", "v2")
                .containsEntry("name", "observatory")
                .containsEntry("version", "0.1.0");
        assertThat(projectVersion).startsWith("0.1.0");
        assertThat(chart.get("appVersion")).isEqualTo(projectVersion.replaceFirst("-SNAPSHOT$", ""));
    }

    @Test
    void renderWhenKubernetesOlderThanNativeGrpcProbesThenRejected() {
        TemplateCommand template = new Helm(CHART).template().withName(RELEASE).withKubeVersion("1.26.0");

        assertThatThrownBy(template::call).hasMessageContaining("kubeVersion: >=1.27.0-0");
    }

    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class Defaults {

        private final Manifest manifest = Manifest.render(Map.of());

        @Test
        void renderWhenDefaultsThenOnlyTheCoreObjects() {
            assertThat(manifest.kinds())
                    .containsExactlyInAnyOrder("ServiceAccount", "ConfigMap", "Service", "Deployment");
            assertThat(manifest.objects()).allSatisfy(object -> {
                assertThat(object.getMetadata().getName()).isEqualTo(FULLNAME);
                assertThat(object.getMetadata().getLabels())
                        .containsEntry("app.kubernetes.io/name", "observatory")
                        .containsEntry("app.kubernetes.io/instance", RELEASE)
                        .containsEntry("app.kubernetes.io/version", "0.1.0")
                        .containsEntry("app.kubernetes.io/managed-by", "Helm")
                        .containsEntry("helm.sh/chart", "observatory-0.1.0");
            });
        }

        @Test
        void serviceWhenDefaultsThenNamedGrpcAndManagementPorts() {
            Service service = manifest.one(Service.class);

            assertThat(service.getSpec().getType()).isEqualTo("ClusterIP");
            assertThat(service.getSpec().getSelector())
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of("app.kubernetes.io/name", "observatory", "app.kubernetes.io/instance", RELEASE));
            assertThat(service.getSpec().getPorts())
                    .extracting(
                            ServicePort::getName,
                            ServicePort::getPort,
                            port -> port.getTargetPort().getStrVal())
                    .containsExactly(tuple("grpc", 9090, "grpc"), tuple("http-management", 8081, "http-management"));
        }

        @Test
        void deploymentWhenDefaultsThenImageArgsAndContainerPorts() {
            Deployment deployment = manifest.one(Deployment.class);
            Container container = manifest.container();

            assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
            assertThat(deployment.getSpec().getSelector().getMatchLabels())
                    .isEqualTo(manifest.one(Service.class).getSpec().getSelector());
            assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                    .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());
            assertThat(container.getImage()).isEqualTo("observatory:0.1.0");
            assertThat(container.getImagePullPolicy()).isEqualTo("IfNotPresent");
            assertThat(container.getArgs()).containsExactly("--spring.config.additional-location=" + CONFIG_FILE);
            assertThat(container.getPorts())
                    .extracting(ContainerPort::getName, ContainerPort::getContainerPort, ContainerPort::getProtocol)
                    .containsExactly(tuple("grpc", 9090, "TCP"), tuple("http-management", 8081, "TCP"));
        }

        @Test
        void probesWhenDefaultsThenGrpcHealthForStartupAndLivenessAndTheReadinessGroupForReadiness() {
            Container container = manifest.container();
            Probe startup = container.getStartupProbe();
            Probe readiness = container.getReadinessProbe();
            Probe liveness = container.getLivenessProbe();

            assertThat(List.of(startup, liveness)).allSatisfy(probe -> {
                assertThat(probe.getGrpc().getPort()).isEqualTo(9090);
                assertThat(probe.getGrpc().getService()).isEmpty();
                assertThat(probe.getHttpGet()).isNull();
                assertThat(probe.getExec()).isNull();
                assertThat(probe.getTcpSocket()).isNull();
            });
            assertThat(readiness.getGrpc()).isNull();
            assertThat(readiness.getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
            assertThat(readiness.getHttpGet().getPort().getStrVal()).isEqualTo("http-management");
            // The JVM gets two minutes to start; liveness tolerates longer outages than readiness.
            assertThat(startup.getPeriodSeconds() * startup.getFailureThreshold())
                    .isEqualTo(120);
            assertThat(readiness.getPeriodSeconds() * readiness.getFailureThreshold())
                    .isEqualTo(10);
            assertThat(liveness.getPeriodSeconds() * liveness.getFailureThreshold())
                    .isEqualTo(60);
        }

        @Test
        void securityWhenDefaultsThenNonRootReadOnlyNoCapabilitiesNoToken() {
            PodSpec pod = manifest.pod();
            Container container = manifest.container();

            assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(10001L);
            assertThat(pod.getSecurityContext().getRunAsGroup()).isEqualTo(10001L);
            assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            assertThat(container.getSecurityContext().getAllowPrivilegeEscalation())
                    .isFalse();
            assertThat(container.getSecurityContext().getReadOnlyRootFilesystem())
                    .isTrue();
            assertThat(container.getSecurityContext().getCapabilities().getDrop())
                    .containsExactly("ALL");
            assertThat(container.getSecurityContext().getPrivileged()).isNull();
            assertThat(pod.getAutomountServiceAccountToken()).isFalse();
            assertThat(pod.getServiceAccountName()).isEqualTo(FULLNAME);
            assertThat(manifest.one(ServiceAccount.class).getAutomountServiceAccountToken())
                    .isFalse();
        }

        @Test
        void volumesWhenDefaultsThenConfigDirectoryAndWritableTmp() {
            Map<String, VolumeMount> mounts = manifest.container().getVolumeMounts().stream()
                    .collect(Collectors.toMap(VolumeMount::getMountPath, Function.identity()));
            Map<String, Volume> volumes = manifest.pod().getVolumes().stream()
                    .collect(Collectors.toMap(Volume::getName, Function.identity()));

            VolumeMount config = mounts.get(CONFIG_DIR);
            assertThat(config.getReadOnly()).isTrue();
            // A directory mount, not a subPath: the kubelet updates it in place (live reload).
            assertThat(config.getSubPath()).isNull();
            assertThat(volumes.get(config.getName()).getConfigMap().getName()).isEqualTo(FULLNAME);
            Volume tmp = volumes.get(mounts.get("/tmp").getName());
            assertThat(tmp.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("64Mi"));
        }

        @Test
        void resourcesWhenDefaultsThenLimitedAndHeapFollowsTheLimit() {
            Container container = manifest.container();

            assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
            assertThat(container.getResources().getLimits())
                    .containsEntry("memory", new Quantity("512Mi"))
                    .containsKey("cpu");
            assertThat(manifest.env())
                    .containsEntry("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError")
                    .as("incidents in an SQLite file on the one writable volume of a read-only root")
                    .containsEntry("OBSERVATORY_INCIDENTS_ENABLED", "true")
                    .containsEntry("SPRING_DATASOURCE_URL", "jdbc:sqlite:/tmp/observatory.db");
        }

        @Test
        void configMapWhenDefaultsThenStandardObserverGrpcAndManagementPorts() {
            Map<String, Object> config = manifest.applicationYml();

            assertThat(path(config, "spring", "grpc", "server", "port")).isEqualTo(9090);
            assertThat(path(config, "server", "port")).isEqualTo(8081);
            assertThat(path(config, "logging", "structured", "format", "console"))
                    .isEqualTo("ecs");
            assertThat(path(config, "observatory", "outbounds")).isEqualTo(List.of());
            assertThat(path(config, "observatory", "standard", "probe-interval"))
                    .isEqualTo("10s");
            assertThat(path(config, "observatory", "burst")).isNull();
            assertThat(path(config, "observatory", "reload", "enabled")).isEqualTo(false);
            assertThat(mapAt(config, "observatory", "standard"))
                    .containsOnlyKeys("subject-selector", "probe-url", "probe-interval", "enable-concurrency");
            assertThat(mapAt(config, "observatory")).doesNotContainKeys("passive", "availability", "api");
            assertThat(manifest.one(ConfigMap.class).getData()).containsOnlyKeys("application.yml");
            assertThat(manifest.container().getEnv())
                    .extracting(EnvVar::getName)
                    .doesNotContain("OBSERVATORY_API_TOKEN");
        }

        @Test
        void bindWhenDefaultsThenTheServiceAcceptsTheConfig(@TempDir Path mount) throws IOException {
            ObservatoryConfig config = manifest.bindAndValidate(mount);

            assertThat(config.outbounds()).isEmpty();
            assertThat(config.standard()).satisfies(standard -> {
                assertThat(standard.subjectSelector()).isEmpty();
                assertThat(standard.probeInterval()).isEqualTo(Duration.ofSeconds(10));
                assertThat(standard.probeUri()).isEqualTo(URI.create("https://www.google.com/generate_204"));
            });
            assertThat(config.burst()).isNull();
            assertThat(config.probe().maxConcurrent()).isEqualTo(1024);
            assertThat(config.standard().activeCheck())
                    .isEqualTo(new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1)));
            assertThat(config.passive().policy())
                    .isEqualTo(new TransportFailureRatePolicy(Duration.ofSeconds(60), 10, 0.3, Duration.ofSeconds(60)));
            assertThat(config.availability().policy()).isEqualTo(new AvailabilityPolicy.HealthyOrPanic(0));
            assertThat(config.api().auth()).isEqualTo(new ApiAuthSettings(null, null, false, false));
        }

        @Test
        void annotationsWhenDefaultsThenConfigChecksumAndNoSecret() {
            assertThat(manifest.podAnnotations()).containsOnlyKeys("checksum/config");
            assertThat(manifest.podAnnotations().get("checksum/config")).matches("[0-9a-f]{64}");
        }

        @Test
        void notesWhenInstalledThenPortForwardAndGrpcurlLines() {
            String notes = new Helm(CHART)
                    .install()
                    .withName(RELEASE)
                    .withNamespace(NAMESPACE)
                    .withKubeVersion(KUBE_VERSION)
                    .dryRun()
                    .clientOnly()
                    .call()
                    .getOutput();

            assertThat(notes)
                    .contains(
                            "kubectl --namespace observability port-forward service/obs-observatory 9090:9090",
                            "grpcurl -plaintext localhost:9090 "
                                    + "xray.core.app.observatory.command.ObservatoryService/GetOutboundStatus",
                            "observatory.outbounds is empty");
        }
    }

    @Test
    void checksumWhenConfigChangesThenChangesAndOtherwiseStays() {
        String base = Manifest.render(Map.of()).podAnnotations().get("checksum/config");

        assertThat(Manifest.render(Map.of("replicaCount", "3")).podAnnotations())
                .containsEntry("checksum/config", base);
        assertThat(Manifest.render(Map.of("observatory.standard.probeInterval", "30s"))
                        .podAnnotations()
                        .get("checksum/config"))
                .isNotEqualTo(base);
    }

    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class FullValues {

        private final Manifest manifest = Manifest.render(Map.of(), FULL_VALUES);
        private final Map<String, Object> values = parseYaml(read(FULL_VALUES));

        @Test
        void renderWhenEverythingOnThenOptionalObjectsToo() {
            assertThat(manifest.kinds())
                    .containsExactlyInAnyOrder(
                            "ServiceAccount",
                            "ConfigMap",
                            "Secret",
                            "Service",
                            "Deployment",
                            "PodDisruptionBudget",
                            "ServiceMonitor",
                            "PrometheusRule",
                            "NetworkPolicy");
            assertThat(manifest.one(Deployment.class).getSpec().getReplicas()).isEqualTo(2);
            assertThat(manifest.container().getImage())
                    .isEqualTo("registry.example.com/platform/observatory:0.1.0-rc1");
            assertThat(manifest.container().getImagePullPolicy()).isEqualTo("Always");
        }

        @Test
        void secretWhenInlineCredentialsThenKeptUnderTheirEnvironmentNames() {
            Map<String, String> data = manifest.secretData();

            assertThat(manifest.one(Secret.class).getType()).isEqualTo("Opaque");
            assertThat(data)
                    .containsExactlyInAnyOrderEntriesOf(Map.of(
                            "OBSERVATORY_OUTBOUND_0_USERNAME", "alice",
                            "OBSERVATORY_OUTBOUND_0_PASSWORD", "pa:ss #1 \"quoted\" {x} $TZ",
                            "OBSERVATORY_OUTBOUND_1_USERNAME", "bob",
                            "OBSERVATORY_OUTBOUND_1_PASSWORD", "s3cr3t-http",
                            "EXTRA_SECRET", "extra-secret-value"));
        }

        @Test
        void envWhenCredentialsThenSecretKeyRefsToTheChartSecretOrTheExistingOne() {
            Map<String, SecretKeySelector> refs = manifest.container().getEnv().stream()
                    .filter(env -> env.getValueFrom() != null)
                    .collect(Collectors.toMap(
                            EnvVar::getName, env -> env.getValueFrom().getSecretKeyRef()));

            assertThat(refs).hasSize(8);
            for (int i = 0; i < 2; i++) {
                for (String credential : List.of("USERNAME", "PASSWORD")) {
                    String name = "OBSERVATORY_OUTBOUND_" + i + "_" + credential;
                    assertThat(refs.get(name).getName()).isEqualTo(FULLNAME);
                    assertThat(refs.get(name).getKey()).isEqualTo(name);
                }
            }
            assertThat(refs.get("OBSERVATORY_OUTBOUND_2_USERNAME"))
                    .extracting(SecretKeySelector::getName, SecretKeySelector::getKey)
                    .containsExactly("proxy-jp-credentials", "user");
            assertThat(refs.get("OBSERVATORY_OUTBOUND_2_PASSWORD"))
                    .extracting(SecretKeySelector::getName, SecretKeySelector::getKey)
                    .containsExactly("proxy-jp-credentials", "password");
            assertThat(refs.get("OBSERVATORY_API_TOKEN"))
                    .extracting(SecretKeySelector::getName, SecretKeySelector::getKey)
                    .containsExactly("observatory-api", "api-token");
            assertThat(refs.get("EXTRA_SECRET").getName()).isEqualTo(FULLNAME);
            assertThat(manifest.env()).containsEntry("TZ", "UTC").containsKey("JAVA_TOOL_OPTIONS");
            assertThat(manifest.container().getEnv())
                    .extracting(EnvVar::getName)
                    .doesNotContain("OBSERVATORY_OUTBOUND_3_USERNAME", "OBSERVATORY_OUTBOUND_3_PASSWORD");
        }

        @Test
        void configMapWhenCredentialsThenOnlyPlaceholdersAndNoSecretValue() {
            ConfigMap configMap = manifest.one(ConfigMap.class);
            List<Map<String, Object>> outbounds = listAt(manifest.applicationYml(), "observatory", "outbounds");

            assertThat(outbounds)
                    .extracting(outbound -> outbound.get("tag"))
                    .containsExactly("proxy_de", "proxy_us", "proxy_jp", "direct");
            assertThat(outbounds.get(0))
                    .containsEntry("protocol", "socks")
                    .containsEntry("address", "10.0.0.5")
                    .containsEntry("port", 1080)
                    .containsEntry("username", "${OBSERVATORY_OUTBOUND_0_USERNAME}")
                    .containsEntry("password", "${OBSERVATORY_OUTBOUND_0_PASSWORD}");
            assertThat(outbounds.get(1))
                    .containsEntry("protocol", "http")
                    .containsEntry("probe-url", "http://10.0.0.6:8080/ready?full=1#frag");
            assertThat(outbounds.get(2)).containsEntry("password", "${OBSERVATORY_OUTBOUND_2_PASSWORD}");
            assertThat(outbounds.get(3)).containsOnlyKeys("tag", "protocol", "probe-url");
            for (String secret : manifest.secretData().values()) {
                assertThat(configMap.getData().values())
                        .allSatisfy(file -> assertThat(file).doesNotContain(secret));
            }
        }

        @Test
        void configMapWhenBurstThenObserverSettingsProbeSettingsAndExtraConfig() {
            Map<String, Object> config = manifest.applicationYml();

            assertThat(path(config, "observatory", "standard")).isNull();
            assertThat(path(config, "observatory", "burst", "subject-selector")).isEqualTo(List.of("proxy_", "direct"));
            assertThat(mapAt(config, "observatory", "burst", "ping-config"))
                    .containsAllEntriesOf(Map.of(
                            "interval",
                            "1m30s",
                            "sampling",
                            5,
                            "timeout",
                            "2.5s",
                            "http-method",
                            "GET",
                            "connectivity",
                            "http://connectivitycheck.platform.hicloud.com/generate_204"));
            assertThat(path(config, "observatory", "probe", "max-concurrent")).isEqualTo(64);
            assertThat(path(config, "observatory", "probe", "trusted-certificates"))
                    .isEqualTo(CONFIG_DIR + "/trusted-certificates.pem");
            assertThat(manifest.one(ConfigMap.class).getData().get("trusted-certificates.pem"))
                    .startsWith("-----BEGIN CERTIFICATE-----\n");
            assertThat(path(config, "logging", "level", "io.observatory")).isEqualTo("DEBUG");
        }

        @Test
        void configMapWhenHealthAndApiValuesThenKebabCaseKeysAndOnlyTheTokenVariableName() {
            Map<String, Object> config = manifest.applicationYml();

            assertThat(mapAt(config, "observatory", "burst"))
                    .containsAllEntriesOf(Map.of(
                            "expected-status",
                            "200-299/304",
                            "healthy-threshold",
                            2,
                            "unhealthy-threshold",
                            3,
                            "max-failure-ratio",
                            0.5));
            assertThat(mapAt(config, "observatory", "passive", "transport-failure-rate"))
                    .containsExactlyInAnyOrderEntriesOf(Map.of(
                            "detection-window",
                            "2m",
                            "minimal-total-count",
                            20,
                            "failure-rate-limit",
                            0.5,
                            "reactivation-period",
                            "3m"));
            assertThat(mapAt(config, "observatory", "passive")).containsOnlyKeys("transport-failure-rate");
            assertThat(mapAt(config, "observatory", "availability", "healthy-or-panic"))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("panic-threshold", 50));
            assertThat(mapAt(config, "observatory", "api", "auth"))
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of("token-env", "OBSERVATORY_API_TOKEN", "require-for-reads", true));
        }

        @Test
        void bindWhenPodEnvironmentResolvedThenTheServiceGetsEveryOutboundWithItsCredentials(@TempDir Path mount)
                throws IOException {
            ObservatoryConfig config = manifest.bindAndValidate(mount);
            List<Map<String, Object>> outbounds = listAt(values, "observatory", "outbounds");

            assertThat(config.outbounds())
                    .containsExactly(
                            new Outbound(
                                    "proxy_de",
                                    Protocol.SOCKS,
                                    "10.0.0.5",
                                    1080,
                                    "alice",
                                    (String) outbounds.get(0).get("password"),
                                    null),
                            new Outbound(
                                    "proxy_us",
                                    Protocol.HTTP,
                                    "proxy.us.example.com",
                                    3128,
                                    "bob",
                                    "s3cr3t-http",
                                    "http://10.0.0.6:8080/ready?full=1#frag"),
                            new Outbound(
                                    "proxy_jp",
                                    Protocol.SOCKS,
                                    "10.0.0.7",
                                    1081,
                                    "existing:proxy-jp-credentials/user",
                                    "existing:proxy-jp-credentials/password",
                                    null),
                            new Outbound(
                                    "direct", Protocol.DIRECT, null, null, null, null, "https://example.com/health"));
            assertThat(config.standard()).isNull();
            assertThat(config.burst()).satisfies(burst -> {
                assertThat(burst.subjectSelector()).containsExactly("proxy_", "direct");
                assertThat(burst.pingConfig().interval()).isEqualTo(Duration.ofSeconds(90));
                assertThat(burst.pingConfig().timeout()).isEqualTo(Duration.ofMillis(2_500));
                assertThat(burst.pingConfig().sampling()).isEqualTo(5);
                assertThat(burst.pingConfig().httpMethod()).isEqualTo("GET");
                assertThat(burst.pingConfig().connectivityUri())
                        .isEqualTo(URI.create("http://connectivitycheck.platform.hicloud.com/generate_204"));
            });
            assertThat(config.probe().maxConcurrent()).isEqualTo(64);
            assertThat(config.probe().sourceAddress()).isEqualTo("127.0.0.1");
            assertThat(config.probe().trustedCertificatesPath()).isEqualTo(mount.resolve("trusted-certificates.pem"));
            assertThat(ProbeHeaders.of(config.probe().headers(), 150).asMap())
                    .containsEntry("User-Agent", "observatory-test/1.0")
                    .doesNotContainKey("Accept-Language");
        }

        @Test
        void bindWhenHealthAndApiValuesThenTheServiceGetsThemAndTheTokenVariable(@TempDir Path mount)
                throws IOException {
            ObservatoryConfig config = manifest.bindAndValidate(mount);

            assertThat(config.burst().windowRule().check())
                    .isEqualTo(new ActiveCheck(ExpectedStatus.parse("200-299/304"), new ActiveHealthPolicy(2, 3)));
            assertThat(config.burst().windowRule().maxFailureRatio()).isEqualTo(OptionalDouble.of(0.5));
            assertThat(config.passive().policy())
                    .isEqualTo(new TransportFailureRatePolicy(Duration.ofMinutes(2), 20, 0.5, Duration.ofMinutes(3)));
            assertThat(config.availability().policy()).isEqualTo(new AvailabilityPolicy.HealthyOrPanic(50));
            assertThat(config.api().auth()).isEqualTo(new ApiAuthSettings(null, "OBSERVATORY_API_TOKEN", true, false));
        }

        @Test
        void annotationsWhenSecretThenBothChecksums() {
            assertThat(manifest.podAnnotations()).containsOnlyKeys("checksum/config", "checksum/secret");
        }

        @Test
        void annotationsWhenLiveReloadThenNoConfigChecksumButStillTheSecretOne() {
            Manifest liveReload = Manifest.render(Map.of("config.liveReload", "true"), FULL_VALUES);

            assertThat(liveReload.podAnnotations())
                    .containsOnlyKeys("checksum/secret")
                    .containsEntry("checksum/secret", manifest.podAnnotations().get("checksum/secret"));
            assertThat(path(liveReload.applicationYml(), "observatory", "reload", "enabled"))
                    .isEqualTo(true);
        }

        @Test
        void podDisruptionBudgetWhenEnabledThenSelectsThePods() {
            PodDisruptionBudget pdb = manifest.one(PodDisruptionBudget.class);

            assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
            assertThat(pdb.getSpec().getMaxUnavailable()).isNull();
            assertThat(pdb.getSpec().getSelector().getMatchLabels())
                    .isEqualTo(manifest.one(Deployment.class)
                            .getSpec()
                            .getSelector()
                            .getMatchLabels());
        }

        @Test
        void prometheusRuleWhenEnabledThenTheChartsRulesFileAsItIs() {
            GenericKubernetesResource rule = manifest.generic("PrometheusRule");
            Map<String, Object> spec = rule.get("spec");

            assertThat(rule.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
            assertThat(rule.getMetadata().getLabels()).containsEntry("release", "prometheus");
            assertThat(spec)
                    .as("the rules promtool tests, their {{ $labels }} left to Prometheus")
                    .isEqualTo(parseYaml(read(Path.of("helm/observatory/rules/observatory-alerts.yaml"))));
        }

        @Test
        void serviceMonitorWhenEnabledThenScrapesTheManagementPort() {
            GenericKubernetesResource monitor = manifest.generic("ServiceMonitor");
            Map<String, Object> spec = monitor.get("spec");

            assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
            assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "prometheus");
            assertThat(path(spec, "selector", "matchLabels"))
                    .isEqualTo(manifest.one(Service.class).getSpec().getSelector());
            assertThat(listAt(spec, "endpoints"))
                    .singleElement()
                    .isEqualTo(Map.of(
                            "port",
                            "http-management",
                            "path",
                            "/actuator/prometheus",
                            "interval",
                            "15s",
                            "scrapeTimeout",
                            "5s"));
        }

        @Test
        void networkPolicyWhenEnabledThenIngressOnlyToTheNamedPortsFromTheAllowedPeersAndEgressOpen() {
            NetworkPolicy policy = manifest.one(NetworkPolicy.class);
            List<NetworkPolicyIngressRule> ingress = policy.getSpec().getIngress();

            assertThat(policy.getSpec().getPodSelector().getMatchLabels())
                    .isEqualTo(manifest.one(Deployment.class)
                            .getSpec()
                            .getSelector()
                            .getMatchLabels());
            assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
            assertThat(policy.getSpec().getEgress()).isEmpty();
            assertThat(ingress).hasSize(2);
            assertThat(ingress.get(0).getPorts())
                    .singleElement()
                    .satisfies(port -> assertThat(port.getPort().getStrVal()).isEqualTo("grpc"));
            assertThat(ingress.get(0).getFrom())
                    .singleElement()
                    .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels())
                            .containsEntry("app.kubernetes.io/name", "balancer"));
            assertThat(ingress.get(1).getPorts())
                    .singleElement()
                    .satisfies(port -> assertThat(port.getPort().getStrVal()).isEqualTo("http-management"));
            assertThat(ingress.get(1).getFrom())
                    .singleElement()
                    .satisfies(peer -> assertThat(peer.getNamespaceSelector().getMatchLabels())
                            .containsEntry("kubernetes.io/metadata.name", "monitoring"));
        }
    }

    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class ApiToken {

        private static final String TOKEN = "t0ken with 'quotes', ${NOT_A_PLACEHOLDER} and #";

        private final Manifest manifest = Manifest.render(Map.of(), writeValues("""
                observatory:
                  api:
                    auth:
                      token: "t0ken with 'quotes', ${NOT_A_PLACEHOLDER} and #"
                """));

        @Test
        void secretWhenInlineTokenThenKeptUnderTheVariableNameAndMappedWithSecretKeyRef() {
            EnvVar token = manifest.container().getEnv().stream()
                    .filter(env -> env.getName().equals("OBSERVATORY_API_TOKEN"))
                    .findFirst()
                    .orElseThrow();

            assertThat(manifest.secretData()).containsExactlyEntriesOf(Map.of("OBSERVATORY_API_TOKEN", TOKEN));
            assertThat(token.getValue()).isNull();
            assertThat(token.getValueFrom().getSecretKeyRef())
                    .extracting(SecretKeySelector::getName, SecretKeySelector::getKey)
                    .containsExactly(FULLNAME, "OBSERVATORY_API_TOKEN");
            assertThat(manifest.podAnnotations()).containsKeys("checksum/config", "checksum/secret");
        }

        @Test
        void configMapWhenInlineTokenThenOnlyTheVariableName() {
            assertThat(mapAt(manifest.applicationYml(), "observatory", "api", "auth"))
                    .containsExactlyEntriesOf(Map.of("token-env", "OBSERVATORY_API_TOKEN"));
            assertThat(manifest.one(ConfigMap.class).getData().values())
                    .allSatisfy(file -> assertThat(file).doesNotContain("t0ken"));
        }

        @Test
        void bindWhenInlineTokenThenTheServiceFindsTheVariableSet(@TempDir Path mount) throws IOException {
            assertThat(manifest.bindAndValidate(mount).api().auth())
                    .isEqualTo(new ApiAuthSettings(null, "OBSERVATORY_API_TOKEN", false, false));
        }

        @Test
        void renderWhenTokenChangesThenTheSecretChecksumRollsThePods() {
            String before = manifest.podAnnotations().get("checksum/secret");
            String after = Manifest.render(Map.of("observatory.api.auth.token", "another"))
                    .podAnnotations()
                    .get("checksum/secret");

            assertThat(after).isNotEqualTo(before);
        }
    }

    @Test
    void renderWhenMeshOffUnquotedThenExactlyTheDefaultRendering() {
        // YAML 1.1 reads an unquoted off as false; it means off as well.
        String defaults = new Helm(CHART)
                .template()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION)
                .call();
        String off = new Helm(CHART)
                .template()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION)
                .withValuesFile(writeValues("mesh:\n  role: off\n"))
                .call();

        assertThat(off).isEqualTo(defaults);
    }

    @Nested
    class WarmRestart {

        @Test
        void renderWhenDefaultsThenNoStateVolumeAndNoStateDirectory() {
            Manifest manifest = Manifest.render(Map.of());

            assertThat(manifest.one(Deployment.class)
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getVolumes())
                    .extracting(Volume::getName)
                    .doesNotContain("state");
            assertThat(manifest.applicationYml().get("observatory"))
                    .asInstanceOf(InstanceOfAssertFactories.MAP)
                    .doesNotContainKey("state");
        }

        @Test
        void renderWhenEnabledThenAnEmptyDirMountedWhereTheStateDirectoryPoints() {
            Manifest manifest = Manifest.render(Map.of("state.enabled", "true", "state.writeInterval", "2s"));
            PodSpec pod = manifest.one(Deployment.class).getSpec().getTemplate().getSpec();

            assertThat(mapAt(manifest.applicationYml(), "observatory", "state"))
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of("directory", "/var/lib/observatory", "write-interval", "2s"));
            assertThat(pod.getContainers().get(0).getVolumeMounts())
                    .filteredOn(mount -> mount.getName().equals("state"))
                    .extracting(VolumeMount::getMountPath)
                    .containsExactly("/var/lib/observatory");
            assertThat(manifest.env())
                    .as("the incidents kept with the state, across container restarts")
                    .containsEntry("SPRING_DATASOURCE_URL", "jdbc:sqlite:/var/lib/observatory/observatory.db");
            assertThat(Manifest.render(Map.of(
                                    "state.enabled",
                                    "true",
                                    "incidents.databaseUrl",
                                    "jdbc:postgresql://postgres:5432/observatory"))
                            .env())
                    .containsEntry("SPRING_DATASOURCE_URL", "jdbc:postgresql://postgres:5432/observatory");
            Volume state = pod.getVolumes().stream()
                    .filter(volume -> volume.getName().equals("state"))
                    .findFirst()
                    .orElseThrow();
            assertThat(state.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("64Mi"));
        }

        @Test
        void renderWhenAnExistingClaimThenItIsMountedForOneReplicaAndRefusedForTwo() {
            PodSpec pod = Manifest.render(Map.of("state.enabled", "true", "state.existingClaim", "observatory-state"))
                    .one(Deployment.class)
                    .getSpec()
                    .getTemplate()
                    .getSpec();
            TemplateCommand shared = new Helm(CHART)
                    .template()
                    .withName(RELEASE)
                    .withKubeVersion(KUBE_VERSION)
                    .set("state.enabled", "true")
                    .set("state.existingClaim", "observatory-state")
                    .set("replicaCount", "2");

            assertThat(pod.getVolumes())
                    .filteredOn(volume -> volume.getName().equals("state"))
                    .extracting(volume -> volume.getPersistentVolumeClaim().getClaimName())
                    .containsExactly("observatory-state");
            assertThatThrownBy(shared::call)
                    .hasMessageContaining("state.existingClaim: observatory-state would be"
                            + " shared by 2 pods writing the same state file");
        }

        @Test
        void renderWhenTheMaxAgeIsABareNumberThenRejectedBySchema() {
            TemplateCommand template = new Helm(CHART)
                    .template()
                    .withName(RELEASE)
                    .withKubeVersion(KUBE_VERSION)
                    .set("state.enabled", "true")
                    .set("state.maxAge", "30");

            assertThatThrownBy(template::call).hasMessageContaining("at '/state/maxAge'");
        }
    }

    @Nested
    class GrafanaDashboard {

        private static final Path DASHBOARD = Path.of("helm/observatory/dashboards/observatory.json");
        private static final String NAME = FULLNAME + "-dashboard";

        @Test
        void renderWhenDefaultsThenNoDashboard() {
            assertThat(Manifest.render(Map.of()).objects())
                    .noneMatch(object -> object.getMetadata().getName().equals(NAME));
        }

        @Test
        void renderWhenEnabledThenConfigMapForTheSidecarWithTheRepositorysDashboardByteForByte() throws IOException {
            ConfigMap dashboard =
                    Manifest.render(Map.of("grafana.dashboard.enabled", "true")).named(ConfigMap.class, NAME);

            assertThat(dashboard.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
            assertThat(dashboard.getMetadata().getLabels())
                    .containsEntry("grafana_dashboard", "1")
                    .containsEntry("app.kubernetes.io/instance", RELEASE);
            assertThat(dashboard.getMetadata().getAnnotations()).isNullOrEmpty();
            assertThat(dashboard.getData()).containsOnlyKeys("observatory.json");
            assertThat(dashboard.getData().get("observatory.json").getBytes(StandardCharsets.UTF_8))
                    .isEqualTo(Files.readAllBytes(DASHBOARD));
        }

        @Test
        void renderWhenLabelNamespaceAndAnnotationsSetThenTheSidecarsOwn() {
            ConfigMap dashboard = Manifest.render(Map.of(
                            "grafana.dashboard.enabled",
                            "true",
                            "grafana.dashboard.label",
                            "example.com/dashboard",
                            "grafana.dashboard.labelValue",
                            "observatory",
                            "grafana.dashboard.namespace",
                            "monitoring",
                            "grafana.dashboard.annotations.grafana_folder",
                            "Proxies"))
                    .named(ConfigMap.class, NAME);

            assertThat(dashboard.getMetadata().getNamespace()).isEqualTo("monitoring");
            assertThat(dashboard.getMetadata().getLabels())
                    .containsEntry("example.com/dashboard", "observatory")
                    .doesNotContainKey("grafana_dashboard");
            assertThat(dashboard.getMetadata().getAnnotations())
                    .containsExactlyEntriesOf(Map.of("grafana_folder", "Proxies"));
        }

        @Test
        void renderWhenLabelIsNoLabelKeyThenRejectedBySchema() {
            TemplateCommand template = new Helm(CHART)
                    .template()
                    .withName(RELEASE)
                    .withKubeVersion(KUBE_VERSION)
                    .set("grafana.dashboard.enabled", "true")
                    .set("grafana.dashboard.label", "grafana dashboard");

            assertThatThrownBy(template::call).hasMessageContaining("at '/grafana/dashboard/label'");
        }
    }

    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class Mesh {

        private static final String HUB = FULLNAME + "-hub";
        private static final String HEADLESS = FULLNAME + "-hub-headless";
        private static final String WITNESS = FULLNAME + "-witness";
        private static final String WITNESS_TOKENS = FULLNAME + "-witness-tokens";
        private static final String TOKENS_DIR = "/var/run/secrets/observatory/witness-tokens";
        private static final List<String> WITNESS_NAMES =
                List.of("w-s1", "w-fr", "w-nl", "node-a", "node-b.example.internal");

        private final Manifest manifest = Manifest.render(Map.of(), MESH_VALUES);

        @Test
        void renderWhenHubThenStatefulSetHeadlessServiceAndWitnessDaemonSetInsteadOfTheDeployment() {
            assertThat(manifest.kinds())
                    .containsExactlyInAnyOrder(
                            "ServiceAccount",
                            "Secret",
                            "Secret",
                            "ConfigMap",
                            "ConfigMap",
                            "Service",
                            "Service",
                            "StatefulSet",
                            "DaemonSet");
            assertThat(manifest.one(StatefulSet.class).getMetadata().getName()).isEqualTo(HUB);
            assertThat(manifest.one(DaemonSet.class).getMetadata().getName()).isEqualTo(WITNESS);
            assertThat(manifest.one(StatefulSet.class).getMetadata().getLabels())
                    .containsEntry("app.kubernetes.io/component", "hub");
            assertThat(manifest.one(DaemonSet.class).getMetadata().getLabels())
                    .containsEntry("app.kubernetes.io/component", "witness");
        }

        @Test
        void statefulSetWhenHubReplicasThenThatManyPodsGovernedByTheHeadlessServiceWithBothPorts() {
            StatefulSet hub = manifest.one(StatefulSet.class);

            assertThat(hub.getSpec().getReplicas()).isEqualTo(3);
            assertThat(hub.getSpec().getServiceName()).isEqualTo(HEADLESS);
            assertThat(hub.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
            assertThat(hub.getSpec().getVolumeClaimTemplates()).isEmpty();
            assertThat(hub.getSpec().getSelector().getMatchLabels())
                    .containsExactlyInAnyOrderEntriesOf(Map.of(
                            "app.kubernetes.io/name",
                            "observatory",
                            "app.kubernetes.io/instance",
                            RELEASE,
                            "app.kubernetes.io/component",
                            "hub"));
            assertThat(hub.getSpec().getTemplate().getMetadata().getLabels())
                    .containsAllEntriesOf(hub.getSpec().getSelector().getMatchLabels());
            assertThat(manifest.container(StatefulSet.class).getPorts())
                    .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
                    .containsExactly(tuple("grpc", 9090), tuple("http-management", 8081));
            assertThat(manifest.container(StatefulSet.class).getArgs())
                    .containsExactly("--spring.config.additional-location=" + CONFIG_FILE);
            assertThat(manifest.podAnnotations(StatefulSet.class)).containsKeys("checksum/config", "checksum/secret");
        }

        @Test
        void headlessServiceWhenHubThenEveryHubPodUnderOneNameOnTheGrpcPortOnly() {
            Service headless = manifest.named(Service.class, HEADLESS);

            assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
            assertThat(headless.getSpec().getPublishNotReadyAddresses()).isTrue();
            assertThat(headless.getSpec().getSelector())
                    .isEqualTo(manifest.one(StatefulSet.class)
                            .getSpec()
                            .getSelector()
                            .getMatchLabels());
            // Only grpc: a ServiceMonitor on http-management finds each pod once, through the Service.
            assertThat(headless.getSpec().getPorts())
                    .extracting(
                            ServicePort::getName,
                            ServicePort::getPort,
                            port -> port.getTargetPort().getStrVal())
                    .containsExactly(tuple("grpc", 9090, "grpc"));
        }

        @Test
        void serviceWhenHubThenSelectsTheHubPodsNotTheWitnesses() {
            Service service = manifest.named(Service.class, FULLNAME);

            assertThat(service.getSpec().getClusterIP()).isNull();
            assertThat(service.getSpec().getSelector())
                    .isEqualTo(manifest.one(StatefulSet.class)
                            .getSpec()
                            .getSelector()
                            .getMatchLabels());
            assertThat(service.getSpec().getPorts())
                    .extracting(ServicePort::getName)
                    .containsExactly("grpc", "http-management");
        }

        @Test
        void tokensWhenHubThenEveryWitnessTokenIsAFileOfTheMountedSecretsAndTokenFileNamesIt() {
            Map<String, Object> mesh = mapAt(manifest.applicationYml(), "observatory", "mesh", "hub");
            VolumeMount mount = manifest.container(StatefulSet.class).getVolumeMounts().stream()
                    .filter(volumeMount -> volumeMount.getName().equals("witness-tokens"))
                    .findFirst()
                    .orElseThrow();
            Volume volume = manifest.pod(StatefulSet.class).getVolumes().stream()
                    .filter(candidate -> candidate.getName().equals("witness-tokens"))
                    .findFirst()
                    .orElseThrow();

            assertThat(mount.getMountPath()).isEqualTo(TOKENS_DIR);
            assertThat(mount.getReadOnly()).isTrue();
            assertThat(mount.getSubPath()).isNull();
            assertThat(volume.getProjected().getSources())
                    .flatExtracting(source -> source.getSecret().getItems().stream()
                            .map(item -> tuple(source.getSecret().getName(), item.getKey(), item.getPath()))
                            .toList())
                    .containsExactlyInAnyOrder(
                            tuple("mesh-witness-tokens", "w-s1", "w-s1"),
                            tuple("fr-witness", "token", "w-fr"),
                            tuple(WITNESS_TOKENS, "w-nl", "w-nl"),
                            tuple("mesh-witness-tokens", "node-a", "node-a"),
                            tuple(WITNESS_TOKENS, "node-b.example.internal", "node-b.example.internal"));
            assertThat(listAt(mesh, "witnesses"))
                    .extracting(witness -> witness.get("name"), witness -> witness.get("token-file"))
                    .containsExactlyElementsOf(WITNESS_NAMES.stream()
                            .map(name -> tuple(name, TOKENS_DIR + "/" + name))
                            .toList());
            assertThat(listAt(mesh, "witnesses"))
                    .allSatisfy(
                            witness -> assertThat(witness).doesNotContainKeys("token", "token-env", "existingSecret"));
            assertThat(manifest.container(StatefulSet.class).getEnv())
                    .extracting(EnvVar::getName)
                    .noneMatch(name -> name.contains("TOKEN"));
        }

        @Test
        void secretWhenInlineWitnessTokensThenKeptUnderTheWitnessNamesApartFromTheCredentials() {
            assertThat(manifest.secretData(WITNESS_TOKENS))
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of("w-nl", "inline-nl-t0ken", "node-b.example.internal", "inline-node-b-t0ken"));
            assertThat(manifest.secretData())
                    .containsExactlyInAnyOrderEntriesOf(Map.of(
                            "OBSERVATORY_MESH_SERVER_0_ENTRY_POINT_0_USERNAME", "mesh-user",
                            "OBSERVATORY_MESH_SERVER_0_ENTRY_POINT_0_PASSWORD", "mesh-pa$$ #1"));
        }

        @Test
        void configMapsWhenMeshThenNoTokenAndNoCredential() {
            List<String> secrets =
                    new ArrayList<>(manifest.secretData(WITNESS_TOKENS).values());
            secrets.addAll(manifest.secretData().values());
            List<String> files = manifest.objects().stream()
                    .filter(ConfigMap.class::isInstance)
                    .map(ConfigMap.class::cast)
                    .flatMap(configMap -> configMap.getData().values().stream())
                    .toList();

            assertThat(secrets).hasSize(4);
            assertThat(files).hasSize(2).allSatisfy(file -> {
                assertThat(file).doesNotContain("t0ken");
                secrets.forEach(secret -> assertThat(file).doesNotContain(secret));
            });
            Map<String, Object> entryPoint = listAt(
                            listAt(manifest.applicationYml(), "observatory", "mesh", "hub", "servers")
                                    .get(0),
                            "entry-points")
                    .get(0);
            assertThat(entryPoint)
                    .containsEntry("username", "${OBSERVATORY_MESH_SERVER_0_ENTRY_POINT_0_USERNAME}")
                    .containsEntry("password", "${OBSERVATORY_MESH_SERVER_0_ENTRY_POINT_0_PASSWORD}");
        }

        @Test
        void bindWhenHubPodThenTheServiceGetsTheFleetItsCredentialsAndReadsEveryTokenFile(@TempDir Path mount)
                throws IOException {
            ObservatoryConfig config = manifest.bindAndValidate(mount, StatefulSet.class, null);
            MeshSettings settings = config.section(MeshSettings.SECTION);
            HubSettings mesh = settings.hub();

            assertThat(settings.role()).isEqualTo(MeshRole.HUB);
            assertThat(mesh.servers())
                    .extracting(FleetServerSettings::name, FleetServerSettings::route)
                    .containsExactly(tuple("s1", "de"), tuple("s2", "de"));
            assertThat(config.observedOutbounds())
                    .containsExactly(
                            new Outbound(
                                    "s1/main", Protocol.SOCKS, "203.0.113.10", 1080, "mesh-user", "mesh-pa$$ #1", null),
                            new Outbound(
                                    "s1/plain",
                                    Protocol.DIRECT,
                                    null,
                                    null,
                                    null,
                                    null,
                                    "https://s1.example.com/health"),
                            new Outbound(
                                    "s2/main",
                                    Protocol.HTTP,
                                    "203.0.113.20",
                                    3128,
                                    "existing:s2-proxy/username",
                                    "existing:s2-proxy/password",
                                    null));
            assertThat(mesh.witnesses())
                    .extracting(
                            FleetWitnessSettings::name,
                            FleetWitnessSettings::site,
                            FleetWitnessSettings::server,
                            FleetWitnessSettings::checker)
                    .containsExactly(
                            tuple("w-s1", "de", "s1", false),
                            tuple("w-fr", "fr", null, true),
                            tuple("w-nl", "nl", null, false),
                            tuple("node-a", "cluster", null, false),
                            tuple("node-b.example.internal", "cluster", null, false));
            assertThat(mesh.witnesses())
                    .extracting(witness -> read(Path.of(witness.tokenFile())))
                    .containsExactly(
                            "existing:mesh-witness-tokens/w-s1",
                            "existing:fr-witness/token",
                            "inline-nl-t0ken",
                            "existing:mesh-witness-tokens/node-a",
                            "inline-node-b-t0ken");
            assertThat(mesh.quorum()).isEqualTo(1);
            assertThat(mesh.streak()).isEqualTo(3);
            assertThat(mesh.reportInterval()).isEqualTo(Duration.ofSeconds(5));
            assertThat(mesh.probe().timeout()).isEqualTo(Duration.ofSeconds(3));
            assertThat(mesh.probe().probeInterval()).isEqualTo(Duration.ofSeconds(10));
        }

        @Test
        void daemonSetWhenEnabledThenOneWitnessOnEachListedNodeNamedAfterIt() {
            PodSpec pod = manifest.pod(DaemonSet.class);
            EnvVar selfName = manifest.container(DaemonSet.class).getEnv().stream()
                    .filter(env -> env.getName().equals("OBSERVATORY_MESH_WITNESS_NAME"))
                    .findFirst()
                    .orElseThrow();

            assertThat(manifest.one(DaemonSet.class).getSpec().getSelector().getMatchLabels())
                    .containsEntry("app.kubernetes.io/component", "witness");
            assertThat(pod.getAffinity()
                            .getNodeAffinity()
                            .getRequiredDuringSchedulingIgnoredDuringExecution()
                            .getNodeSelectorTerms())
                    .singleElement()
                    .satisfies(term -> assertThat(term.getMatchFields())
                            .singleElement()
                            .satisfies(field -> {
                                assertThat(field.getKey()).isEqualTo("metadata.name");
                                assertThat(field.getOperator()).isEqualTo("In");
                                assertThat(field.getValues()).containsExactly("node-a", "node-b.example.internal");
                            }));
            assertThat(pod.getTolerations())
                    .singleElement()
                    .satisfies(toleration ->
                            assertThat(toleration.getKey()).isEqualTo("node-role.kubernetes.io/control-plane"));
            assertThat(selfName.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("spec.nodeName");
            assertThat(manifest.container(DaemonSet.class).getEnv())
                    .extracting(EnvVar::getName)
                    .noneMatch(name -> name.startsWith("OBSERVATORY_MESH_SERVER_"));
            assertThat(pod.getVolumes())
                    .filteredOn(volume -> volume.getName().equals("config"))
                    .singleElement()
                    .satisfies(volume ->
                            assertThat(volume.getConfigMap().getName()).isEqualTo(WITNESS));
            assertThat(pod.getVolumes())
                    .filteredOn(volume -> volume.getName().equals("witness-tokens"))
                    .singleElement()
                    .satisfies(volume -> assertThat(volume.getProjected().getSources())
                            .flatExtracting(source -> source.getSecret().getItems().stream()
                                    .map(KeyToPath::getPath)
                                    .toList())
                            .containsExactlyInAnyOrder("node-a", "node-b.example.internal"));
        }

        @Test
        void configMapWhenWitnessThenReportsToEveryHubPodThroughTheHeadlessService() {
            Map<String, Object> config = manifest.applicationYml(WITNESS);

            assertThat(mapAt(config, "observatory", "mesh", "witness"))
                    .containsExactlyInAnyOrderEntriesOf(Map.of(
                            "name",
                            "${OBSERVATORY_MESH_WITNESS_NAME}",
                            "hubs",
                            List.of(HEADLESS + "." + NAMESPACE + ".svc:9090"),
                            "token-file",
                            TOKENS_DIR + "/${OBSERVATORY_MESH_WITNESS_NAME}",
                            "token-over-plaintext",
                            true));
            assertThat(mapAt(config, "observatory")).doesNotContainKeys("outbounds", "standard", "burst", "api");
            assertThat(path(config, "spring", "grpc", "server", "port")).isEqualTo(9090);
        }

        @Test
        void bindWhenWitnessPodOnANodeThenItIsThatNodesWitnessWithItsOwnToken(@TempDir Path mount) throws IOException {
            ObservatoryConfig config = manifest.bindAndValidate(mount, DaemonSet.class, "node-b.example.internal");
            MeshSettings settings = config.section(MeshSettings.SECTION);
            WitnessSettings mesh = settings.witness();

            assertThat(settings.role()).isEqualTo(MeshRole.WITNESS);
            assertThat(mesh.name()).isEqualTo("node-b.example.internal");
            assertThat(mesh.checks()).isEmpty();
            assertThat(mesh.hubAddresses()).containsExactly(new HostPort(HEADLESS + "." + NAMESPACE + ".svc", 9090));
            assertThat(read(Path.of(mesh.tokenFile()))).isEqualTo("inline-node-b-t0ken");
            assertThat(config.outbounds()).isEmpty();
            assertThat(config.standard()).isNull();
            assertThat(config.burst()).isNull();
        }

        @Test
        void hubsWhenPortsChangedThenTheHeadlessServiceNameAndTheHubPodsContainerPort() {
            // A headless Service's name resolves to the pods themselves: the port is the container's, not a Service's.
            Manifest moved =
                    Manifest.render(Map.of("containerPorts.grpc", "9443", "service.grpcPort", "443"), MESH_VALUES);

            assertThat(path(moved.applicationYml(WITNESS), "observatory", "mesh", "witness", "hubs"))
                    .isEqualTo(List.of(HEADLESS + "." + NAMESPACE + ".svc:9443"));
            assertThat(moved.named(Service.class, HEADLESS).getSpec().getPorts())
                    .singleElement()
                    .satisfies(port -> assertThat(port.getPort()).isEqualTo(9443));
            assertThat(moved.container(StatefulSet.class).getPorts().get(0).getContainerPort())
                    .isEqualTo(9443);
        }

        @Test
        void networkPolicyWhenPeersRestrictedThenTheReleasesWitnessesMayStillReachTheHub() {
            Manifest restricted =
                    Manifest.render(Map.of("networkPolicy.enabled", "true"), MESH_VALUES, writeValues("""
                    networkPolicy:
                      grpcFrom:
                        - podSelector: {matchLabels: {app.kubernetes.io/name: balancer}}
                      egress:
                        - ports: [{port: 53, protocol: UDP}]
                    """));
            NetworkPolicy policy = restricted.one(NetworkPolicy.class);

            assertThat(policy.getSpec().getIngress().get(0).getFrom())
                    .extracting(peer -> peer.getPodSelector().getMatchLabels())
                    .containsExactly(
                            Map.of("app.kubernetes.io/name", "balancer"),
                            restricted
                                    .one(DaemonSet.class)
                                    .getSpec()
                                    .getSelector()
                                    .getMatchLabels());
            assertThat(policy.getSpec().getEgress()).hasSize(2).last().satisfies(rule -> {
                assertThat(rule.getTo())
                        .singleElement()
                        .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels())
                                .isEqualTo(restricted
                                        .one(StatefulSet.class)
                                        .getSpec()
                                        .getSelector()
                                        .getMatchLabels()));
                assertThat(rule.getPorts())
                        .singleElement()
                        .satisfies(
                                port -> assertThat(port.getPort().getStrVal()).isEqualTo("grpc"));
            });
        }

        @Test
        void podDisruptionBudgetWhenHubThenSelectsTheHubPods() {
            Manifest withBudget = Manifest.render(Map.of("podDisruptionBudget.enabled", "true"), MESH_VALUES);

            assertThat(withBudget
                            .one(PodDisruptionBudget.class)
                            .getSpec()
                            .getSelector()
                            .getMatchLabels())
                    .isEqualTo(withBudget
                            .one(StatefulSet.class)
                            .getSpec()
                            .getSelector()
                            .getMatchLabels());
        }

        @Test
        void notesWhenHubThenTheHubsEntryAndTheStatefulSetsLogs() {
            String notes = new Helm(CHART)
                    .install()
                    .withName(RELEASE)
                    .withNamespace(NAMESPACE)
                    .withKubeVersion(KUBE_VERSION)
                    .withValuesFile(MESH_VALUES)
                    .dryRun()
                    .clientOnly()
                    .call()
                    .getOutput();

            assertThat(notes)
                    .contains(
                            HEADLESS + "." + NAMESPACE + ".svc:9090",
                            "\n\nLogs: kubectl --namespace observability logs statefulset/" + HUB + "\n",
                            "3 pods of the StatefulSet " + HUB)
                    // A hub needs no outbounds of its own.
                    .doesNotContain("observatory.outbounds is empty", "deployment/");
        }

        @Test
        void quorumSitesWhenTheDaemonSetRunsThenTwoUnlessSetAndOffWithoutIt() {
            Manifest set = Manifest.render(Map.of("mesh.hub.quorumSites", "3"), MESH_VALUES);
            Manifest hubOnly = Manifest.render(Map.of("mesh.witness.daemonSet.enabled", "false"), MESH_VALUES);

            assertThat(path(manifest.applicationYml(), "observatory", "mesh", "hub", "quorum-sites"))
                    .as("the node witnesses share the cluster's network")
                    .isEqualTo(2);
            assertThat(path(set.applicationYml(), "observatory", "mesh", "hub", "quorum-sites"))
                    .isEqualTo(3);
            assertThat(mapAt(hubOnly.applicationYml(), "observatory", "mesh", "hub"))
                    .doesNotContainKey("quorum-sites");
        }

        @Test
        void renderWhenHubWithoutDaemonSetThenNeitherWitnessObjectsNorTheNodesAsWitnesses() {
            Manifest hubOnly = Manifest.render(Map.of("mesh.witness.daemonSet.enabled", "false"), MESH_VALUES);

            assertThat(hubOnly.kinds()).doesNotContain("DaemonSet", "Deployment");
            assertThat(hubOnly.objects())
                    .extracting(object -> object.getMetadata().getName())
                    .doesNotContain(WITNESS);
            assertThat(listAt(hubOnly.applicationYml(), "observatory", "mesh", "hub", "witnesses"))
                    .extracting(witness -> witness.get("name"))
                    .containsExactly("w-s1", "w-fr", "w-nl");
            assertThat(hubOnly.secretData(WITNESS_TOKENS)).containsOnlyKeys("w-nl");
        }
    }

    @Test
    void bindWhenStandardActiveCheckAndPassiveSetThenTheServiceGetsThem(@TempDir Path mount) throws IOException {
        Manifest manifest = Manifest.render(
                Map.of(
                        "observatory.standard.expectedStatus", "204",
                        "observatory.standard.healthyThreshold", "2",
                        "observatory.standard.unhealthyThreshold", "3",
                        "observatory.passive.consecutiveFailures.threshold", "0"),
                writeValues("""
                observatory:
                  availability:
                    healthyAndUnknown: {}
                """));

        ObservatoryConfig config = manifest.bindAndValidate(mount);

        assertThat(mapAt(manifest.applicationYml(), "observatory", "standard"))
                .containsEntry("expected-status", 204)
                .containsEntry("healthy-threshold", 2);
        assertThat(mapAt(manifest.applicationYml(), "observatory", "passive", "consecutive-failures"))
                .containsExactlyEntriesOf(Map.of("threshold", 0));
        assertThat(mapAt(manifest.applicationYml(), "observatory", "availability", "healthy-and-unknown"))
                .isEmpty();
        assertThat(config.standard().activeCheck())
                .isEqualTo(new ActiveCheck(ExpectedStatus.parse("204"), new ActiveHealthPolicy(2, 3)));
        assertThat(config.passive().policy()).isEqualTo(new ConsecutiveFailuresPolicy(0, Duration.ofSeconds(60)));
        assertThat(config.availability().policy()).isEqualTo(AvailabilityPolicy.HEALTHY_AND_UNKNOWN);
    }

    @Test
    void bindWhenPerOutboundScheduleSetThenTheServiceProbesOnItsOwnSessionsWithThoseIntervals(@TempDir Path mount)
            throws IOException {
        Manifest manifest = Manifest.render(
                Map.of(
                        "observatory.standard.schedule", "per-outbound",
                        "observatory.standard.timeout", "2s",
                        "observatory.standard.unhealthyEdgeInterval", "250ms",
                        "observatory.standard.healthyThreshold", "2",
                        "observatory.standard.unhealthyThreshold", "3"),
                writeValues("observatory: {}\n"));

        ObservatoryConfig config = manifest.bindAndValidate(mount);

        assertThat(mapAt(manifest.applicationYml(), "observatory", "standard"))
                .containsEntry("schedule", "per-outbound")
                .containsEntry("unhealthy-edge-interval", "250ms")
                .doesNotContainKeys("initial-jitter", "unhealthy-interval", "healthy-edge-interval");
        assertThat(config.standard().schedule()).isEqualTo(StandardObserverSettings.Schedule.PER_OUTBOUND);
        assertThat(config.standard().timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.standard().intervals())
                .isEqualTo(new ProbeIntervals(
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(10),
                        Duration.ofMillis(250),
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(10),
                        Duration.ZERO));
    }

    /** The start of a values file with a valid hub: one server with one entry point. */
    private static final String MESH_HUB = """
            mesh:
              role: hub
              hub:
                servers: [{name: s1, route: de, entryPoints: [{name: main, protocol: direct}]}]
            """;

    static Stream<Arguments> invalidValues() {
        return Stream.of(
                Arguments.of("replicaCount: \"two\"\n", "at '/replicaCount': got string, want integer"),
                Arguments.of("""
                        observatory:
                          outbounds:
                            - {tag: proxy_de, protocol: socks, address: 10.0.0.5, port: "abc"}
                        """, "at '/observatory/outbounds/0/port': got string, want integer"),
                Arguments.of("""
                        observatory:
                          standard:
                            probeIntervall: 10s
                        """, "at '/observatory/standard': additional properties 'probeIntervall' not allowed"),
                Arguments.of("replicas: 2\n", "additional properties 'replicas' not allowed"),
                Arguments.of(
                        """
                        observatory:
                          outbounds:
                            - {tag: proxy_de, protocol: https, address: 10.0.0.5, port: 1080}
                        """, "at '/observatory/outbounds/0/protocol': value must be one of 'direct', 'http', 'socks'"),
                Arguments.of("""
                        observatory:
                          outbounds:
                            - {tag: proxy_de, protocol: socks, address: 10.0.0.5, port: 70000}
                        """, "at '/observatory/outbounds/0/port': maximum"),
                Arguments.of("""
                        observatory:
                          outbounds:
                            - {tag: proxy_de, protocol: socks, address: 10.0.0.5, port: 1080, username: u}
                        """, "at '/observatory/outbounds/0': properties 'password' required"),
                Arguments.of("""
                        observatory:
                          outbounds:
                            - {tag: direct, protocol: direct, port: 80}
                        """, "at '/observatory/outbounds/0/port': false schema"),
                Arguments.of("""
                        observatory:
                          standard:
                            probeInterval: 10
                        """, "at '/observatory/standard/probeInterval': got number, want string"),
                Arguments.of("""
                        observatory:
                          burst:
                            pingConfig:
                              interval: 1000
                        """, "at '/observatory/burst/pingConfig/interval': got number, want string"),
                Arguments.of("""
                        observatory:
                          observer: xray
                        """, "at '/observatory/observer': value must be one of 'standard', 'burst', 'none'"),
                Arguments.of("""
                        observatory:
                          outbounds:
                            - {tag: a, protocol: direct}
                            - {tag: a, protocol: direct}
                        """, "observatory.outbounds[1].tag: \"a\" is used by another outbound"),
                Arguments.of(
                        """
                        observatory:
                          outbounds:
                            - {tag: a, protocol: http, address: h, port: 3128, username: u, password: "p${HOME}"}
                        """,
                        "observatory.outbounds[0].password: contains \"${\", which Spring would read as a "
                                + "placeholder"),
                Arguments.of("""
                        observatory:
                          standard:
                            expectedStatus: 2xx
                        """, "at '/observatory/standard/expectedStatus'"),
                Arguments.of("""
                        observatory:
                          standard:
                            healthyThreshold: 0
                        """, "at '/observatory/standard/healthyThreshold': minimum"),
                Arguments.of("""
                        observatory:
                          burst:
                            maxFailureRatio: 1.5
                        """, "at '/observatory/burst/maxFailureRatio': maximum"),
                Arguments.of("""
                        observatory:
                          passive:
                            outlierDetection: {}
                        """, "at '/observatory/passive': additional properties 'outlierDetection' not allowed"),
                Arguments.of("""
                        observatory:
                          passive:
                            transportFailureRate: {}
                            consecutiveFailures: {threshold: 5}
                        """, "at '/observatory/passive': maxProperties"),
                Arguments.of("""
                        observatory:
                          passive:
                            consecutiveFailures: {threshold: -1}
                        """, "at '/observatory/passive/consecutiveFailures/threshold': minimum"),
                Arguments.of("""
                        observatory:
                          passive:
                            transportFailureRate: {failureRateLimit: 0}
                        """, "at '/observatory/passive/transportFailureRate/failureRateLimit': exclusiveMinimum"),
                Arguments.of(
                        """
                        observatory:
                          passive:
                            transportFailureRate: {reactivationPeriod: 60}
                        """,
                        "at '/observatory/passive/transportFailureRate/reactivationPeriod': got number, "
                                + "want string"),
                Arguments.of("""
                        observatory:
                          availability:
                            healthyOrPanic: {panicThreshold: 101}
                        """, "at '/observatory/availability/healthyOrPanic/panicThreshold': maximum"),
                Arguments.of(
                        """
                        observatory:
                          availability:
                            healthyAndUnknown: {panicThreshold: 50}
                        """,
                        "at '/observatory/availability/healthyAndUnknown': additional properties "
                                + "'panicThreshold' not allowed"),
                Arguments.of("""
                        observatory:
                          api:
                            auth:
                              token: abc
                              existingSecret: {name: observatory-api}
                        """, "at '/observatory/api/auth/token': false schema"),
                Arguments.of("""
                        observatory:
                          api:
                            auth:
                              tokenFile: /run/secrets/token
                        """, "at '/observatory/api/auth': additional properties 'tokenFile' not allowed"),
                Arguments.of("""
                        secretEnv:
                          OBSERVATORY_API_TOKEN: abc
                        """, "invalid propertyName 'OBSERVATORY_API_TOKEN'"),
                Arguments.of("""
                        secretEnv:
                          OBSERVATORY_MESH_WITNESS_NAME: node-a
                        """, "invalid propertyName 'OBSERVATORY_MESH_WITNESS_NAME'"),
                Arguments.of("""
                        mesh:
                          role: witness
                        """, "at '/mesh/role': value must be one of 'off', 'hub'"),
                Arguments.of("""
                        mesh:
                          role: hub
                        """, "at '/mesh/hub/servers': minItems: got 0, want 1"),
                Arguments.of(MESH_HUB + """
                            replicas: 0
                        """, "at '/mesh/hub/replicas': minimum"),
                Arguments.of("""
                        mesh:
                          role: hub
                          hub:
                            servers: [{name: s1, route: de, entryPoints: []}]
                        """, "at '/mesh/hub/servers/0/entryPoints': minItems"),
                Arguments.of("""
                        mesh:
                          role: hub
                          hub:
                            servers: [{name: s1, route: de, entryPoints: [{name: main, protocol: direct, port: 80}]}]
                        """, "at '/mesh/hub/servers/0/entryPoints/0/port': false schema"),
                Arguments.of(
                        """
                        mesh:
                          role: hub
                          hub:
                            servers:
                              - name: s1
                                route: de
                                entryPoints:
                                  - {name: main, protocol: socks, address: h, port: 1080, username: u, password: "p${X}"}
                        """,
                        "mesh.hub.servers[0].entryPoints[0].password: contains \"${\", which Spring would read as a "
                                + "placeholder"),
                Arguments.of(MESH_HUB + """
                            witnesses: [{name: w1, site: de}]
                        """, "at '/mesh/hub/witnesses/0': missing property 'token'"),
                Arguments.of(MESH_HUB + """
                            witnesses: [{name: w1, site: de, token: abc, existingSecret: {name: tokens}}]
                        """, "at '/mesh/hub/witnesses/0/token': false schema"),
                Arguments.of(MESH_HUB + """
                            witnesses: [{name: w/1, site: de, token: abc}]
                        """, "at '/mesh/hub/witnesses/0/name': 'w/1' does not match pattern"),
                Arguments.of(MESH_HUB + """
                            reportInterval: 10
                        """, "at '/mesh/hub/reportInterval': got number, want string"),
                Arguments.of("""
                        mesh:
                          witness:
                            daemonSet: {enabled: true, site: cluster, nodes: [{name: node-a, token: abc}]}
                        """, "mesh.witness.daemonSet.enabled: needs mesh.role hub"),
                Arguments.of(MESH_HUB + """
                          witness:
                            daemonSet: {enabled: true, nodes: [{name: node-a, token: abc}]}
                        """, "at '/mesh/witness/daemonSet/site': '' does not match pattern"),
                Arguments.of(
                        MESH_HUB + """
                          witness:
                            daemonSet: {enabled: true, site: cluster, nodes: [{name: Node_A, token: abc}]}
                        """, "at '/mesh/witness/daemonSet/nodes/0/name': 'Node_A' does not match pattern"),
                Arguments.of(
                        MESH_HUB + """
                            witnesses: [{name: node-a, site: de, token: abc}]
                          witness:
                            daemonSet: {enabled: true, site: cluster, nodes: [{name: node-a, token: def}]}
                        """, "mesh.witness.daemonSet.nodes[0].name: \"node-a\" is used by another witness"));
    }

    @ParameterizedTest
    @MethodSource("invalidValues")
    void renderWhenValuesInvalidThenRejectedNamingTheField(String values, String expectedError, @TempDir Path dir)
            throws IOException {
        Path file = Files.writeString(dir.resolve("values.yaml"), values);
        TemplateCommand template = new Helm(CHART)
                .template()
                .withName(RELEASE)
                .withKubeVersion(KUBE_VERSION)
                .withValuesFile(file);

        assertThatThrownBy(template::call).hasMessageContaining(expectedError);
    }

    /** The objects of one rendering, parsed into fabric8's model (custom kinds as generic resources). */
    record Manifest(List<HasMetadata> objects) {

        static Manifest render(Map<String, String> sets, Path... valuesFiles) {
            TemplateCommand template = new Helm(CHART)
                    .template()
                    .withName(RELEASE)
                    .withNamespace(NAMESPACE)
                    .withKubeVersion(KUBE_VERSION);
            for (Path valuesFile : valuesFiles) {
                template = template.withValuesFile(valuesFile);
            }
            for (Map.Entry<String, String> set : sets.entrySet()) {
                template = template.set(set.getKey(), set.getValue());
            }
            List<HasMetadata> objects = SERIALIZATION.unmarshal(template.call());
            return new Manifest(objects);
        }

        List<String> kinds() {
            return objects.stream().map(HasMetadata::getKind).toList();
        }

        <T extends HasMetadata> T one(Class<T> type) {
            List<T> found =
                    objects.stream().filter(type::isInstance).map(type::cast).toList();
            assertThat(found).as("rendered %s objects", type.getSimpleName()).hasSize(1);
            return found.get(0);
        }

        GenericKubernetesResource generic(String kind) {
            return objects.stream()
                    .filter(object -> object.getKind().equals(kind))
                    .map(GenericKubernetesResource.class::cast)
                    .findFirst()
                    .orElseThrow();
        }

        <T extends HasMetadata> T named(Class<T> type, String name) {
            return objects.stream()
                    .filter(type::isInstance)
                    .map(type::cast)
                    .filter(object -> object.getMetadata().getName().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " named " + name));
        }

        /** The pod template of the one workload of {@code kind}: Deployment, StatefulSet or DaemonSet. */
        PodTemplateSpec podTemplate(Class<? extends HasMetadata> kind) {
            HasMetadata workload = one(kind);
            if (workload instanceof Deployment deployment) {
                return deployment.getSpec().getTemplate();
            }
            if (workload instanceof StatefulSet statefulSet) {
                return statefulSet.getSpec().getTemplate();
            }
            return ((DaemonSet) workload).getSpec().getTemplate();
        }

        PodSpec pod() {
            return pod(Deployment.class);
        }

        PodSpec pod(Class<? extends HasMetadata> kind) {
            return podTemplate(kind).getSpec();
        }

        Container container() {
            return container(Deployment.class);
        }

        Container container(Class<? extends HasMetadata> kind) {
            assertThat(pod(kind).getContainers()).hasSize(1);
            return pod(kind).getContainers().get(0);
        }

        Map<String, String> podAnnotations() {
            return podAnnotations(Deployment.class);
        }

        Map<String, String> podAnnotations(Class<? extends HasMetadata> kind) {
            Map<String, String> annotations = podTemplate(kind).getMetadata().getAnnotations();
            return annotations == null ? Map.of() : annotations;
        }

        /** The container's plain (non-secret) environment values. */
        Map<String, String> env() {
            Map<String, String> env = new LinkedHashMap<>();
            container().getEnv().stream()
                    .filter(var -> var.getValueFrom() == null)
                    .forEach(var -> env.put(var.getName(), var.getValue()));
            return env;
        }

        /** The chart Secret's data, decoded; empty when the chart rendered no Secret. */
        Map<String, String> secretData() {
            return secretData(FULLNAME);
        }

        /** The data of the rendered Secret {@code name}, decoded; empty when the chart rendered no such Secret. */
        Map<String, String> secretData(String name) {
            Map<String, String> data = new LinkedHashMap<>();
            objects.stream()
                    .filter(Secret.class::isInstance)
                    .map(Secret.class::cast)
                    .filter(secret -> secret.getMetadata().getName().equals(name))
                    .findFirst()
                    .ifPresent(secret -> secret.getData()
                            .forEach((key, value) -> data.put(
                                    key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8))));
            return data;
        }

        /**
         * What the kubelet reads for a secretKeyRef or a Secret volume's item: the value in the rendered Secret, or
         * "existing:NAME/KEY" for a Secret the chart does not own.
         */
        String secretValue(String name, String key) {
            boolean rendered = objects.stream()
                    .anyMatch(object -> object instanceof Secret
                            && object.getMetadata().getName().equals(name));
            if (!rendered) {
                return "existing:" + name + "/" + key;
            }
            String value = secretData(name).get(key);
            assertThat(value).as("key %s of the rendered Secret %s", key, name).isNotNull();
            return value;
        }

        Map<String, Object> applicationYml() {
            return applicationYml(FULLNAME);
        }

        Map<String, Object> applicationYml(String configMap) {
            return parseYaml(named(ConfigMap.class, configMap).getData().get("application.yml"));
        }

        ObservatoryConfig bindAndValidate(Path mount) throws IOException {
            return bindAndValidate(mount, Deployment.class, null);
        }

        /**
         * Does what a started pod of the workload {@code kind} does with this rendering and returns the service's
         * validated configuration: the files of the ConfigMap mounted at /etc/observatory are written to
         * {@code mount} (standing in for that directory), the items of its projected Secret volumes (the witness
         * tokens) to {@code mount/<volume>}, the container's environment is resolved as the kubelet would (values,
         * secretKeyRefs from the rendered Secrets — keys of a Secret the chart does not own become
         * "existing:NAME/KEY" — and spec.nodeName as {@code nodeName}), and the service's classes bind the
         * {@code application.yml} with that environment taking precedence, resolve the placeholders and validate
         * (the API token's variable is looked up in that environment too). Paths in the mounted directories are
         * mapped to their stand-ins.
         */
        ObservatoryConfig bindAndValidate(Path mount, Class<? extends HasMetadata> kind, @Nullable String nodeName)
                throws IOException {
            Container container = container(kind);
            Map<String, Volume> volumes =
                    pod(kind).getVolumes().stream().collect(Collectors.toMap(Volume::getName, Function.identity()));
            Map<String, Path> standIns = new LinkedHashMap<>();
            ConfigMap configMap = null;
            for (VolumeMount volumeMount : container.getVolumeMounts()) {
                Volume volume = volumes.get(volumeMount.getName());
                if (volumeMount.getMountPath().equals(CONFIG_DIR)) {
                    configMap = named(ConfigMap.class, volume.getConfigMap().getName());
                    standIns.put(CONFIG_DIR + "/", mount);
                } else if (volume.getProjected() != null) {
                    Path directory = Files.createDirectories(mount.resolve(volume.getName()));
                    for (VolumeProjection source : volume.getProjected().getSources()) {
                        for (KeyToPath item : source.getSecret().getItems()) {
                            Files.writeString(
                                    directory.resolve(item.getPath()),
                                    secretValue(source.getSecret().getName(), item.getKey()));
                        }
                    }
                    standIns.put(volumeMount.getMountPath() + "/", directory);
                }
            }
            assertThat(configMap).as("the ConfigMap mounted at %s", CONFIG_DIR).isNotNull();
            for (Map.Entry<String, String> file : configMap.getData().entrySet()) {
                Files.writeString(mount.resolve(file.getKey()), file.getValue());
            }
            Map<String, Object> environment = new LinkedHashMap<>();
            for (EnvVar var : container.getEnv()) {
                if (var.getValueFrom() == null) {
                    environment.put(var.getName(), var.getValue());
                } else if (var.getValueFrom().getFieldRef() != null) {
                    assertThat(var.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("spec.nodeName");
                    environment.put(var.getName(), nodeName);
                } else {
                    SecretKeySelector ref = var.getValueFrom().getSecretKeyRef();
                    environment.put(var.getName(), secretValue(ref.getName(), ref.getKey()));
                }
            }
            assertThat(environment).doesNotContainValue(null);

            MutablePropertySources sources = new MutablePropertySources();
            sources.addLast(new SystemEnvironmentPropertySource("systemEnvironment", environment));
            List<PropertySource<?>> yaml = new YamlPropertySourceLoader()
                    .load(
                            CONFIG_FILE,
                            new ByteArrayResource(
                                    configMap.getData().get("application.yml").getBytes(StandardCharsets.UTF_8)));
            yaml.forEach(sources::addLast);

            StandardEnvironment pod = new StandardEnvironment();
            List.copyOf(pod.getPropertySources().stream()
                            .map(PropertySource::getName)
                            .toList())
                    .forEach(pod.getPropertySources()::remove);
            sources.forEach(pod.getPropertySources()::addLast);
            // The pod mounts its volumes under /etc/observatory and /var/run/secrets; here they live in `mount`. The
            // file's own source is replaced (not shadowed), since Spring Boot binds a list from one source only.
            Map<String, Object> file = new LinkedHashMap<>();
            for (String name : ((EnumerablePropertySource<?>) yaml.get(0)).getPropertyNames()) {
                Object value = yaml.get(0).getProperty(name);
                if (name.endsWith("trusted-certificates") || name.endsWith("token-file")) {
                    String path = pod.resolveRequiredPlaceholders(value.toString());
                    Map.Entry<String, Path> standIn = standIns.entrySet().stream()
                            .filter(entry -> path.startsWith(entry.getKey()))
                            .findFirst()
                            .orElseThrow(() -> new AssertionError(name + ": " + path + " is in no mounted volume"));
                    value = standIn.getValue()
                            .resolve(path.substring(standIn.getKey().length()))
                            .toString();
                }
                file.put(name, value);
            }
            pod.getPropertySources()
                    .replace(
                            yaml.get(0).getName(),
                            new MapPropertySource(yaml.get(0).getName(), file));
            ObservatoryConfigBinder.Bound bound;
            try (ObservatoryConfigBinder binder =
                    new ObservatoryConfigBinder(Configs.SECTIONS, name -> (String) environment.get(name))) {
                bound = binder.bind(pod);
            }
            ObservatoryConfig config = bound.config();
            List<String> warnings = bound.warnings();
            assertThat(warnings).noneMatch(warning -> warning.contains("matches no outbound"));
            return config;
        }
    }

    /** Writes a values file for one rendering; it is deleted when the JVM exits. */
    private static Path writeValues(String values) {
        try {
            Path file = Files.createTempFile("observatory-values", ".yaml");
            file.toFile().deleteOnExit();
            return Files.writeString(file, values);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> parseYaml(String text) {
        return new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Follows nested map keys; {@code null} when one is missing. */
    private static Object path(Map<String, Object> map, String... keys) {
        Object current = map;
        for (String key : keys) {
            if (!(current instanceof Map<?, ?> level)) {
                return null;
            }
            current = level.get(key);
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mapAt(Map<String, Object> map, String... keys) {
        return (Map<String, Object>) path(map, keys);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> listAt(Map<String, Object> map, String... keys) {
        return (List<Map<String, Object>>) path(map, keys);
    }
}
