# syntax=docker/dockerfile:1
# Observatory container image: docker build -t observatory:0.1.0 .   (BuildKit, the default builder of Docker 23+)
#
# Stage 1 builds the executable jar with the project's Maven wrapper and extracts its layers; stage 2 runs them on a
# JRE as an unprivileged user. Layers, from least to most often changed: dependencies, Spring Boot's launcher,
# snapshot dependencies, the application's own classes — a code change rebuilds only the last, small one.

FROM eclipse-temurin:17-jdk-noble AS build
WORKDIR /workspace
COPY mvnw pom.xml ./
COPY .mvn .mvn
COPY proto proto
COPY src src
# The cache mount keeps the local Maven repository between builds without putting it in an image layer.
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q package -DskipTests \
    && cp target/observatory-*.jar app.jar \
    && java -Djarmode=tools -jar app.jar extract --layers --launcher --destination extracted

FROM eclipse-temurin:17-jre-noble
# A fixed numeric user and group, matching the Helm chart's runAsUser/runAsGroup (10001); no home, no login shell.
RUN groupadd --system --gid 10001 observatory \
    && useradd --system --uid 10001 --gid observatory --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin observatory
WORKDIR /app
COPY --from=build /workspace/extracted/dependencies/ ./
COPY --from=build /workspace/extracted/spring-boot-loader/ ./
COPY --from=build /workspace/extracted/snapshot-dependencies/ ./
COPY --from=build /workspace/extracted/application/ ./
USER 10001:10001
# 9090: gRPC (Xray's ObservatoryService, grpc.health.v1, reflection); 8081: HTTP management (a later version).
EXPOSE 9090 8081
# Heap as a share of the container's memory limit; exit (and be restarted) on OutOfMemoryError. In JAVA_TOOL_OPTIONS
# rather than on the command line so that a deployment can replace them (the Helm chart's jvm.toolOptions does).
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
# Configuration: mount a file and pass --spring.config.additional-location=/etc/observatory/application.yml (as the
# chart does), or use environment variables (OBSERVATORY_STANDARD_PROBEINTERVAL=30s, ...).
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
