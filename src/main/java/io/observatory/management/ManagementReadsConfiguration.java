package io.observatory.management;

import io.observatory.api.auth.ApiGuard;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.server.WebFilter;
import org.springframework.web.util.pattern.PathPatternParser;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API's read rule on the HTTP ports ({@link HttpReads}), for the {@code observatory} endpoint and for the
 * capabilities' routes that read the observation. The endpoint is guarded wherever Actuator maps it: under
 * {@code management.endpoints.web.base-path} and {@code path-mapping}, on the management port when
 * {@code management.server.port} sets one (whose context takes this filter from the application's).
 */
@Configuration(proxyBeanMethods = false)
public class ManagementReadsConfiguration {

    static final EndpointId OBSERVATORY = EndpointId.of("observatory");

    @Bean
    HttpReads httpReads(ApiGuard guard, JsonMapper json) {
        return new HttpReads(guard, json);
    }

    /** Guards {@code /actuator/observatory} and below; guards nothing when the endpoint is not exposed over HTTP. */
    @Bean
    WebFilter observatoryEndpointReads(HttpReads reads, PathMappedEndpoints endpoints) {
        String path = endpoints.getPath(OBSERVATORY);
        if (path == null) {
            return (exchange, chain) -> chain.filter(exchange);
        }
        return reads.webFilter(PathPatternParser.defaultInstance.parse(path + "/**"));
    }
}
