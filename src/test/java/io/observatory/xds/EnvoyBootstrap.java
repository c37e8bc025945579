package io.observatory.xds;

import com.google.protobuf.TypeRegistry;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.json.JsonMapper;

/** An Envoy bootstrap file read as Envoy reads it: YAML as the JSON form of {@code envoy.config.bootstrap.v3}. */
final class EnvoyBootstrap {

    private EnvoyBootstrap() {}

    /** Parses {@code file}; every key must be a field of Envoy's API and every typed config known. */
    static Bootstrap read(Path file) throws IOException {
        Object yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file));
        String json = JsonMapper.builder().build().writeValueAsString(yaml);
        Bootstrap.Builder bootstrap = Bootstrap.newBuilder();
        JsonFormat.parser()
                .usingTypeRegistry(TypeRegistry.newBuilder()
                        .add(TcpProxy.getDescriptor())
                        .add(HttpProtocolOptions.getDescriptor())
                        .build())
                .merge(json, bootstrap);
        return bootstrap.build();
    }
}
