package io.observatory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Entry point of the Observatory service: health-checks outbounds and serves verdicts over gRPC. */
@SpringBootApplication
public class ObservatoryApplication {

    /**
     * Starts the service.
     *
     * @param args Spring Boot command-line arguments ({@code --spring.profiles.active=demo} runs the embedded demo)
     */
    public static void main(String[] args) {
        SpringApplication.run(ObservatoryApplication.class, args);
    }
}
