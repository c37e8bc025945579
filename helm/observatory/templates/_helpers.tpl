{{/*
The chart name, or nameOverride: the app.kubernetes.io/name label.
*/}}
{{- define "observatory.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The name of every object of the release: fullnameOverride, else "<release>-<name>" (just the release name when it
already contains the chart name). 63 characters at most (DNS label).
*/}}
{{- define "observatory.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The helm.sh/chart label: "<chart>-<version>".
*/}}
{{- define "observatory.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The labels of every object.
*/}}
{{- define "observatory.labels" -}}
{{- include "observatory.componentLabels" (list . "health-checker") }}
{{- end }}

{{/*
The labels of the objects of one component, (list $ COMPONENT): "health-checker" for the single-vantage checker and
the objects the components share, "hub" or "witness" for the mesh's.
*/}}
{{- define "observatory.componentLabels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ include "observatory.chart" $root }}
{{ include "observatory.selectorLabels" $root }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/component: {{ index . 1 }}
app.kubernetes.io/part-of: observatory
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
{{- end }}

{{/*
The labels that select the release's pods (never change them on upgrade: a Deployment's selector is immutable).
*/}}
{{- define "observatory.selectorLabels" -}}
app.kubernetes.io/name: {{ include "observatory.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
The labels that select the pods of one mesh component, (list $ "hub") or (list $ "witness").
*/}}
{{- define "observatory.componentSelectorLabels" -}}
{{ include "observatory.selectorLabels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/*
Whether the release deploys the mesh hub (mesh.role hub): "true" or "". An unquoted off in a values file reads as the
boolean false (YAML 1.1), which means off as well.
*/}}
{{- define "observatory.meshHub" -}}
{{- if eq (toString .Values.mesh.role) "hub" }}true{{ end }}
{{- end }}

{{/*
The labels that select the pods serving the API behind the Service: the Deployment's, or the hub's with mesh.role hub.
*/}}
{{- define "observatory.servingSelectorLabels" -}}
{{- if include "observatory.meshHub" . }}
{{- include "observatory.componentSelectorLabels" (list . "hub") }}
{{- else }}
{{- include "observatory.selectorLabels" . }}
{{- end }}
{{- end }}

{{/*
The hub's StatefulSet. 52 characters at most: its pods' names and controller-revision-hash label append to it within
a DNS label's 63.
*/}}
{{- define "observatory.hubName" -}}
{{- printf "%s-hub" (include "observatory.fullname" . | trunc 48 | trimSuffix "-") }}
{{- end }}

{{/*
The hub's headless Service, whose DNS name resolves to every hub pod's address (a DNS label: 63 characters at most).
*/}}
{{- define "observatory.hubHeadlessName" -}}
{{- printf "%s-hub-headless" (include "observatory.fullname" . | trunc 50 | trimSuffix "-") }}
{{- end }}

{{/*
The hubs entry of the release's witnesses: the headless Service's name in the release's namespace and the hub pods'
gRPC container port (a headless Service's name resolves to the pods themselves, so the Service port plays no part).
*/}}
{{- define "observatory.hubAddress" -}}
{{- printf "%s.%s.svc:%d" (include "observatory.hubHeadlessName" .) .Release.Namespace (.Values.containerPorts.grpc | int) }}
{{- end }}

{{/*
The witness DaemonSet and its ConfigMap. 52 characters at most, as for the hub.
*/}}
{{- define "observatory.witnessName" -}}
{{- printf "%s-witness" (include "observatory.fullname" . | trunc 44 | trimSuffix "-") }}
{{- end }}

{{/*
The chart's Secret of the witness tokens given inline in values, one key per witness name.
*/}}
{{- define "observatory.witnessTokensSecret" -}}
{{- printf "%s-witness-tokens" (include "observatory.fullname" .) }}
{{- end }}

{{/*
Where hub and witness pods find the witness tokens: one file per witness, named after it (the witness-tokens volume).
*/}}
{{- define "observatory.witnessTokensDir" -}}
/var/run/secrets/observatory/witness-tokens
{{- end }}

{{/*
The ServiceAccount of the pods.
*/}}
{{- define "observatory.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "observatory.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The container image: repository and tag, the tag defaulting to the chart's appVersion.
*/}}
{{- define "observatory.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/*
Everything in values that has proxy credentials, in order, as a YAML list of {env, field, values}: the outbounds
(env OBSERVATORY_OUTBOUND_<i>, field observatory.outbounds[<i>], 0-based) and, with mesh.role hub, the mesh entry
points (OBSERVATORY_MESH_SERVER_<i>_ENTRY_POINT_<j>, mesh.hub.servers[<i>].entryPoints[<j>]). Each credential travels
as the environment variable <env>_USERNAME or <env>_PASSWORD, which the rendered application.yml references as a
Spring placeholder. The names are deliberately not Spring Boot's forms of the properties
(OBSERVATORY_OUTBOUNDS_<i>_..., OBSERVATORY_MESH_SERVERS_<i>_...): Spring Boot would bind those to the list itself and
replace the whole list with them.
*/}}
{{- define "observatory.credentialed" -}}
{{- $holders := list }}
{{- range $i, $outbound := .Values.observatory.outbounds }}
{{- $holders = append $holders (dict "env" (printf "OBSERVATORY_OUTBOUND_%d" $i) "field" (printf "observatory.outbounds[%d]" $i) "values" $outbound) }}
{{- end }}
{{- if include "observatory.meshHub" . }}
{{- range $i, $server := .Values.mesh.hub.servers }}
{{- range $j, $entryPoint := $server.entryPoints }}
{{- $holders = append $holders (dict "env" (printf "OBSERVATORY_MESH_SERVER_%d_ENTRY_POINT_%d" $i $j) "field" (printf "mesh.hub.servers[%d].entryPoints[%d]" $i $j) "values" $entryPoint) }}
{{- end }}
{{- end }}
{{- end }}
{{- $credentialed := list }}
{{- range $holders }}
{{- if include "observatory.hasCredentials" .values }}
{{- $credentialed = append $credentialed . }}
{{- end }}
{{- end }}
{{- toYaml $credentialed }}
{{- end }}

{{/*
The environment variable carrying the v1 API's bearer token; the rendered application.yml names it in
observatory.api.auth.token-env (the service reads it by name, no placeholder). Spring Boot would map it to
observatory.api.token, which does not exist, and ignores it: environment variables are exempt from the strict key check.
*/}}
{{- define "observatory.apiTokenEnv" -}}
OBSERVATORY_API_TOKEN
{{- end }}

{{/*
The secretKeyRef of the API token as a dict, or an empty dict when no token is configured: the chart's Secret for
observatory.api.auth.token, the user's for observatory.api.auth.existingSecret.
*/}}
{{- define "observatory.apiTokenRef" -}}
{{- $auth := dig "auth" (dict) .Values.observatory.api }}
{{- if $auth.existingSecret }}
{{- toYaml (dict "name" $auth.existingSecret.name "key" ($auth.existingSecret.key | default "token")) }}
{{- else if $auth.token }}
{{- toYaml (dict "name" (include "observatory.fullname" .) "key" (include "observatory.apiTokenEnv" .)) }}
{{- end }}
{{- end }}

{{/*
Copies the keys of a values section that are set (not absent, not null) into a rendered section under their property
names: (list SOURCE TARGET (dict "camelKey" "kebab-key" ...)). Renders nothing; TARGET is changed in place.
*/}}
{{- define "observatory.copySet" -}}
{{- $source := index . 0 }}
{{- $target := index . 1 }}
{{- range $key, $property := index . 2 }}
{{- if and (hasKey $source $key) (not (kindIs "invalid" (get $source $key))) }}
{{- $_ := set $target $property (get $source $key) }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Renders one policy section of observatory.passive or .availability: when the values section (list: source, its key,
target, the rendered key, a dict of value keys to rendered keys) holds the policy's key, even as an empty map, the
policy is rendered with the keys that are set; an empty section selects the policy with the service's defaults.
*/}}
{{- define "observatory.policySection" -}}
{{- $source := index . 0 }}
{{- $key := index . 1 }}
{{- if hasKey $source $key }}
{{- $section := dict }}
{{- include "observatory.copySet" (list (get $source $key | default dict) $section (index . 4)) }}
{{- $_ := set (index . 2) (index . 3) $section }}
{{- end }}
{{- end }}

{{/*
Whether an outbound or a mesh entry point (a values entry) has proxy credentials, inline or in an existing Secret:
"true" or "".
*/}}
{{- define "observatory.hasCredentials" -}}
{{- if or .username .password .existingSecret }}true{{ end }}
{{- end }}

{{/*
The data of the chart's Secret as YAML (key: base64 value), empty when there is nothing to keep: the inline proxy
credentials of outbounds and mesh entry points and the API token (keys named like their environment variables), and
secretEnv.
*/}}
{{- define "observatory.secretData" -}}
{{- $data := dict }}
{{- range include "observatory.credentialed" . | fromYamlArray }}
{{- if not .values.existingSecret }}
{{- $_ := set $data (printf "%s_USERNAME" .env) (toString .values.username | b64enc) }}
{{- $_ := set $data (printf "%s_PASSWORD" .env) (toString .values.password | b64enc) }}
{{- end }}
{{- end }}
{{- $auth := dig "auth" (dict) .Values.observatory.api }}
{{- if and $auth.token (not $auth.existingSecret) }}
{{- $_ := set $data (include "observatory.apiTokenEnv" .) (toString $auth.token | b64enc) }}
{{- end }}
{{- range $name, $value := .Values.secretEnv }}
{{- $_ := set $data $name (toString $value | b64enc) }}
{{- end }}
{{- if $data }}
{{- toYaml $data }}
{{- end }}
{{- end }}

{{/*
The container's environment in the Deployment or the hub's StatefulSet: JVM flags, every credential, the API token
and secretEnv entry from its Secret (secretKeyRef), then extraEnv. A YAML list.
*/}}
{{- define "observatory.env" -}}
{{- $secret := include "observatory.fullname" . }}
{{- $env := list (dict "name" "JAVA_TOOL_OPTIONS" "value" .Values.jvm.toolOptions) }}
{{- $env = concat $env (include "observatory.incidentEnv" (list . .Values.state.enabled) | fromYamlArray) }}
{{- range $holder := include "observatory.credentialed" . | fromYamlArray }}
{{- range $credential := list "USERNAME" "PASSWORD" }}
{{- $name := printf "%s_%s" $holder.env $credential }}
{{- $ref := dict "name" $secret "key" $name }}
{{- with $holder.values.existingSecret }}
{{- $key := eq $credential "USERNAME" | ternary (.usernameKey | default "username") (.passwordKey | default "password") }}
{{- $ref = dict "name" .name "key" $key }}
{{- end }}
{{- $env = append $env (dict "name" $name "valueFrom" (dict "secretKeyRef" $ref)) }}
{{- end }}
{{- end }}
{{- with include "observatory.apiTokenRef" . | fromYaml }}
{{- $env = append $env (dict "name" (include "observatory.apiTokenEnv" $) "valueFrom" (dict "secretKeyRef" .)) }}
{{- end }}
{{- toYaml (concat $env (include "observatory.secretEnv" . | fromYamlArray) .Values.extraEnv) }}
{{- end }}

{{/*
The secretEnv entries as a YAML list of EnvVars, each from the chart's Secret (secretKeyRef), in name order.
*/}}
{{- define "observatory.secretEnv" -}}
{{- $env := list }}
{{- range $name := keys .Values.secretEnv | sortAlpha }}
{{- $env = append $env (dict "name" $name "valueFrom" (dict "secretKeyRef" (dict "name" (include "observatory.fullname" $) "key" $name))) }}
{{- end }}
{{- toYaml $env }}
{{- end }}

{{/*
The environment of a witness pod of the DaemonSet: JVM flags, OBSERVATORY_MESH_WITNESS_NAME from the node's name (the
downward API; the rendered application.yml uses it as the witness's name and to find its token file), secretEnv, then
extraEnv. A YAML list.
*/}}
{{- define "observatory.witnessEnv" -}}
{{- $env := list (dict "name" "JAVA_TOOL_OPTIONS" "value" .Values.jvm.toolOptions) }}
{{- $env = concat $env (include "observatory.incidentEnv" (list . false) | fromYamlArray) }}
{{- $env = append $env (dict "name" "OBSERVATORY_MESH_WITNESS_NAME" "valueFrom" (dict "fieldRef" (dict "fieldPath" "spec.nodeName"))) }}
{{- toYaml (concat $env (include "observatory.secretEnv" . | fromYamlArray) .Values.extraEnv) }}
{{- end }}

{{/*
The service's application.yml as a dict, built from values and rendered with toYaml (never by pasting strings), so
any value is quoted as YAML needs. Credentials appear only as ${ENV} placeholders, the API token only as the name of
its variable, the witness tokens only as the paths of their files. Keys of observatory.passive, .availability, .api,
the observers' active checks and the mesh's verdict settings are rendered only when set, so the service's defaults
apply otherwise. Fails on a duplicate tag.
*/}}
{{- define "observatory.applicationConfig" -}}
{{- $values := .Values.observatory }}
{{- $placeholders := dict }}
{{- range include "observatory.credentialed" . | fromYamlArray }}
{{- $holder := . }}
{{- range $credential := list "username" "password" }}
{{- if contains "${" (get $holder.values $credential | toString) }}
{{- /* Spring resolves placeholders inside the resolved value too, and its escape works only in some positions. */}}
{{- fail (printf "%s.%s: contains \"${\", which Spring would read as a placeholder (use a credential without \"${\")" $holder.field $credential) }}
{{- end }}
{{- end }}
{{- $_ := set $placeholders $holder.field (dict "username" (printf "${%s_USERNAME}" $holder.env) "password" (printf "${%s_PASSWORD}" $holder.env)) }}
{{- end }}
{{- $outbounds := list }}
{{- $tags := dict }}
{{- range $i, $outbound := $values.outbounds }}
{{- if hasKey $tags $outbound.tag }}
{{- fail (printf "observatory.outbounds[%d].tag: %q is used by another outbound (tags must be unique)" $i $outbound.tag) }}
{{- end }}
{{- $_ := set $tags $outbound.tag true }}
{{- $rendered := include "observatory.proxyConfig" (list $outbound (get $placeholders (printf "observatory.outbounds[%d]" $i))) | fromYaml }}
{{- $outbounds = append $outbounds (set $rendered "tag" $outbound.tag) }}
{{- end }}
{{- $probe := include "observatory.probeConfig" . | fromYaml }}
{{- with $values.probe.sourceAddress }}
{{- $_ := set $probe "source-address" . }}
{{- end }}
{{- $observatory := dict "outbounds" $outbounds "probe" $probe "reload" (dict "enabled" $.Values.config.liveReload) }}
{{- with $.Values.state }}
{{- if .enabled }}
{{- $state := dict "directory" (include "observatory.stateDir" $) }}
{{- with .writeInterval }}
{{- $_ := set $state "write-interval" . }}
{{- end }}
{{- with .maxAge }}
{{- $_ := set $state "max-age" . }}
{{- end }}
{{- $_ := set $observatory "state" $state }}
{{- end }}
{{- end }}
{{- $activeCheck := dict "expectedStatus" "expected-status" "healthyThreshold" "healthy-threshold" "unhealthyThreshold" "unhealthy-threshold" }}
{{- if eq $values.observer "standard" }}
{{- $standard := dict "subject-selector" $values.standard.subjectSelector "probe-interval" $values.standard.probeInterval "enable-concurrency" $values.standard.enableConcurrency }}
{{- with $values.standard.probeUrl }}
{{- $_ := set $standard "probe-url" . }}
{{- end }}
{{- include "observatory.copySet" (list $values.standard $standard $activeCheck) }}
{{- $schedule := dict "schedule" "schedule" "timeout" "timeout" "initialJitter" "initial-jitter" "intervalJitter" "interval-jitter" "unhealthyInterval" "unhealthy-interval" "unhealthyEdgeInterval" "unhealthy-edge-interval" "healthyEdgeInterval" "healthy-edge-interval" }}
{{- include "observatory.copySet" (list $values.standard $standard $schedule) }}
{{- $_ := set $observatory "standard" $standard }}
{{- else if eq $values.observer "burst" }}
{{- $ping := $values.burst.pingConfig }}
{{- $pingConfig := dict "interval" $ping.interval "sampling" $ping.sampling "timeout" $ping.timeout "http-method" $ping.httpMethod }}
{{- with $ping.destination }}
{{- $_ := set $pingConfig "destination" . }}
{{- end }}
{{- with $ping.connectivity }}
{{- $_ := set $pingConfig "connectivity" . }}
{{- end }}
{{- $burst := dict "subject-selector" $values.burst.subjectSelector "ping-config" $pingConfig }}
{{- include "observatory.copySet" (list $values.burst $burst (merge (dict "maxFailureRatio" "max-failure-ratio") $activeCheck)) }}
{{- $_ := set $observatory "burst" $burst }}
{{- end }}
{{- $passive := dict }}
{{- include "observatory.policySection" (list $values.passive "transportFailureRate" $passive "transport-failure-rate" (dict "detectionWindow" "detection-window" "minimalTotalCount" "minimal-total-count" "failureRateLimit" "failure-rate-limit" "reactivationPeriod" "reactivation-period")) }}
{{- include "observatory.policySection" (list $values.passive "consecutiveFailures" $passive "consecutive-failures" (dict "threshold" "threshold" "reactivationPeriod" "reactivation-period")) }}
{{- with $passive }}
{{- $_ := set $observatory "passive" . }}
{{- end }}
{{- $availability := dict }}
{{- include "observatory.policySection" (list $values.availability "healthyOrPanic" $availability "healthy-or-panic" (dict "panicThreshold" "panic-threshold")) }}
{{- include "observatory.policySection" (list $values.availability "healthyAndUnknown" $availability "healthy-and-unknown" (dict)) }}
{{- with $availability }}
{{- $_ := set $observatory "availability" . }}
{{- end }}
{{- $auth := dict }}
{{- include "observatory.copySet" (list (dig "auth" (dict) $values.api) $auth (dict "requireForReads" "require-for-reads")) }}
{{- if include "observatory.apiTokenRef" . }}
{{- $_ := set $auth "token-env" (include "observatory.apiTokenEnv" .) }}
{{- end }}
{{- with $auth }}
{{- $_ := set $observatory "api" (dict "auth" .) }}
{{- end }}
{{- if include "observatory.meshHub" . }}
{{- $_ := set $observatory "mesh" (include "observatory.hubMeshConfig" (list . $placeholders) | fromYaml) }}
{{- end }}
{{- include "observatory.configFile" (list . $observatory) }}
{{- end }}

{{/*
What an outbound and a mesh entry point have in common, rendered from its values entry, (list VALUES PLACEHOLDERS):
protocol, address and port when set, the credentials' placeholders when it has credentials (PLACEHOLDERS: their dict,
or nil), probe-url when set. A YAML dict.
*/}}
{{- define "observatory.proxyConfig" -}}
{{- $values := index . 0 }}
{{- $rendered := dict "protocol" $values.protocol }}
{{- if hasKey $values "address" }}
{{- $_ := set $rendered "address" $values.address }}
{{- end }}
{{- if hasKey $values "port" }}
{{- $_ := set $rendered "port" $values.port }}
{{- end }}
{{- with index . 1 }}
{{- $rendered = merge $rendered . }}
{{- end }}
{{- with $values.probeUrl }}
{{- $_ := set $rendered "probe-url" . }}
{{- end }}
{{- toYaml $rendered }}
{{- end }}

{{/*
observatory.probe without source-address, a YAML dict: max-concurrent, the headers, and the path of the trusted CA
certificates (mounted from the ConfigMap) when some are given.
*/}}
{{- define "observatory.probeConfig" -}}
{{- $values := .Values.observatory.probe }}
{{- $headers := dict }}
{{- range $name, $value := $values.headers }}
{{- /* Brackets keep a map key as written (case, dashes) in Spring Boot's binding. */}}
{{- $_ := set $headers (printf "[%s]" $name) $value }}
{{- end }}
{{- $probe := dict "max-concurrent" $values.maxConcurrent "headers" $headers }}
{{- if $values.trustedCertificates }}
{{- $_ := set $probe "trusted-certificates" "/etc/observatory/trusted-certificates.pem" }}
{{- end }}
{{- toYaml $probe }}
{{- end }}

{{/*
A whole application.yml, (list $ OBSERVATORY): the observatory block given, the gRPC and management ports, the log
format, merged over extraConfig (the chart's keys win).
*/}}
{{- define "observatory.configFile" -}}
{{- $root := index . 0 }}
{{- $config := dict
  "observatory" (index . 1)
  "spring" (dict "grpc" (dict "server" (dict "port" $root.Values.containerPorts.grpc)))
  "server" (dict "port" $root.Values.containerPorts.management) }}
{{- if $root.Values.logging.json }}
{{- $_ := set $config "logging" (dict "structured" (dict "format" (dict "console" "ecs"))) }}
{{- end }}
{{- toYaml (mustMergeOverwrite (deepCopy $root.Values.extraConfig) $config) }}
{{- end }}

{{/*
observatory.mesh of the hub, (list $ PLACEHOLDERS), a YAML dict: its hub section, the servers with their entry points
(credentials as placeholders, from PLACEHOLDERS by values field), the witnesses — mesh.hub.witnesses, then the
DaemonSet's nodes — each with the path of its token file, and the verdict and probe settings that are set.
*/}}
{{- define "observatory.hubMeshConfig" -}}
{{- $root := index . 0 }}
{{- $placeholders := index . 1 }}
{{- $hub := $root.Values.mesh.hub }}
{{- $servers := list }}
{{- range $i, $server := $hub.servers }}
{{- $entryPoints := list }}
{{- range $j, $entryPoint := $server.entryPoints }}
{{- $rendered := include "observatory.proxyConfig" (list $entryPoint (get $placeholders (printf "mesh.hub.servers[%d].entryPoints[%d]" $i $j))) | fromYaml }}
{{- $entryPoints = append $entryPoints (set $rendered "name" $entryPoint.name) }}
{{- end }}
{{- $servers = append $servers (dict "name" $server.name "route" $server.route "entry-points" $entryPoints) }}
{{- end }}
{{- $witnesses := list }}
{{- range $hub.witnesses }}
{{- $witness := dict "name" .name "site" .site "token-file" (printf "%s/%s" (include "observatory.witnessTokensDir" $root) .name) }}
{{- include "observatory.copySet" (list . $witness (dict "server" "server" "checker" "checker")) }}
{{- $witnesses = append $witnesses $witness }}
{{- end }}
{{- with $root.Values.mesh.witness.daemonSet }}
{{- if .enabled }}
{{- range .nodes }}
{{- $witnesses = append $witnesses (dict "name" .name "site" $root.Values.mesh.witness.daemonSet.site "token-file" (printf "%s/%s" (include "observatory.witnessTokensDir" $root) .name)) }}
{{- end }}
{{- end }}
{{- end }}
{{- $hubConfig := dict "servers" $servers "witnesses" $witnesses }}
{{- include "observatory.copySet" (list $hub $hubConfig (dict "streak" "streak" "quorum" "quorum" "quorumSites" "quorum-sites" "unreliableShare" "unreliable-share" "reportInterval" "report-interval" "noDataAfter" "no-data-after")) }}
{{- /* The DaemonSet's node witnesses share the cluster's network: unless told otherwise, they may not make a quorum alone. */}}
{{- if and $root.Values.mesh.witness.daemonSet.enabled (not (hasKey $hubConfig "quorum-sites")) }}
{{- $_ := set $hubConfig "quorum-sites" 2 }}
{{- end }}
{{- $probe := dict }}
{{- include "observatory.copySet" (list (default (dict) $hub.probe) $probe (dict "probeUrl" "probe-url" "probeInterval" "probe-interval" "timeout" "timeout")) }}
{{- with $probe }}
{{- $_ := set $hubConfig "probe" . }}
{{- end }}
{{- toYaml (dict "hub" $hubConfig) }}
{{- end }}

{{/*
The application.yml of a witness pod of the DaemonSet: a witness section, named after its node (OBSERVATORY_MESH_WITNESS_NAME,
see observatory.witnessEnv) and reading the token file of that name, reporting to every hub pod through the headless
Service over the cluster network in plaintext (token-over-plaintext: the chart serves the hub's gRPC port without TLS;
networkPolicy limits who reaches it); observatory.probe as on the hub but without source-address (a fixed address is one pod's), no outbounds and
no observer (it probes what the hub's fleet names).
*/}}
{{- define "observatory.witnessConfig" -}}
{{- $mesh := dict "witness" (dict
  "name" "${OBSERVATORY_MESH_WITNESS_NAME}"
  "hubs" (list (include "observatory.hubAddress" .))
  "token-file" (printf "%s/${OBSERVATORY_MESH_WITNESS_NAME}" (include "observatory.witnessTokensDir" .))
  "token-over-plaintext" true) }}
{{- $observatory := dict "mesh" $mesh "probe" (include "observatory.probeConfig" . | fromYaml) "reload" (dict "enabled" .Values.config.liveReload) }}
{{- include "observatory.configFile" (list . $observatory) }}
{{- end }}

{{/*
Where each witness's token is kept, a YAML list of {name, secret, key, node}: mesh.hub.witnesses, then, with
mesh.witness.daemonSet.enabled, its nodes (node: true). The Secret is the user's (existingSecret; the key defaults to
the witness's name) or the chart's witness-tokens Secret (key: the witness's name). Fails on a name used twice.
*/}}
{{- define "observatory.witnessTokens" -}}
{{- $tokens := list }}
{{- $names := dict }}
{{- $groups := list (list "mesh.hub.witnesses" .Values.mesh.hub.witnesses false) }}
{{- if .Values.mesh.witness.daemonSet.enabled }}
{{- $groups = append $groups (list "mesh.witness.daemonSet.nodes" .Values.mesh.witness.daemonSet.nodes true) }}
{{- end }}
{{- range $group := $groups }}
{{- range $i, $witness := index $group 1 }}
{{- if hasKey $names $witness.name }}
{{- fail (printf "%s[%d].name: %q is used by another witness (witness names must be unique)" (index $group 0) $i $witness.name) }}
{{- end }}
{{- $_ := set $names $witness.name true }}
{{- $token := dict "name" $witness.name "secret" (include "observatory.witnessTokensSecret" $) "key" $witness.name "node" (index $group 2) }}
{{- with $witness.existingSecret }}
{{- $_ := set $token "secret" .name }}
{{- $_ := set $token "key" (.key | default $witness.name) }}
{{- end }}
{{- $tokens = append $tokens $token }}
{{- end }}
{{- end }}
{{- toYaml $tokens }}
{{- end }}

{{/*
The witness-tokens volume of a pod, for the witnesses given (a list from observatory.witnessTokens): a projected
volume with each witness's token as the file named after the witness, one source per Secret. Projected, not subPath:
the kubelet updates the files in place when a Secret changes, and the service reads token files again as they change.
*/}}
{{- define "observatory.witnessTokensVolume" -}}
{{- $items := dict }}
{{- range . }}
{{- $_ := set $items .secret (append (get $items .secret | default list) (dict "key" .key "path" .name)) }}
{{- end }}
{{- $sources := list }}
{{- range $secret := keys $items | sortAlpha }}
{{- $sources = append $sources (dict "secret" (dict "name" $secret "items" (get $items $secret))) }}
{{- end }}
{{- toYaml (dict "name" "witness-tokens" "projected" (dict "sources" $sources)) }}
{{- end }}

{{/*
The pod template of the Deployment, the hub's StatefulSet and the witness DaemonSet, from a dict:
  root:         the chart's context ($)
  labels:       the pods' labels (YAML); podLabels are added
  configMap:    the ConfigMap holding the pods' application.yml, mounted at /etc/observatory
  configFile:   its template file, e.g. "/configmap.yaml", whose checksum rolls the pods unless config.liveReload
  secretEnv:    whether the pods read the chart's Secret through their environment (a checksum of it rolls them)
  env:          the container's environment (YAML list)
  tokens:       the witnesses whose token files the pods mount (see observatory.witnessTokens), or none
  state:        whether the pods mount the warm-restart state volume (state.enabled, for the main configuration's pods)
  replicas:     how many pods share the template (an existingClaim state volume takes one)
  nodeSelector, affinity, tolerations: the pods' scheduling
*/}}
{{- define "observatory.podTemplate" -}}
{{- if and .state .root.Values.state.existingClaim (gt (int .replicas) 1) }}
{{- fail (printf "state.existingClaim: %s would be shared by %d pods writing the same state file (expected: one replica, or no existingClaim: each pod then keeps its own emptyDir)" .root.Values.state.existingClaim (int .replicas)) }}
{{- end }}
{{- $root := .root }}
{{- $values := $root.Values }}
{{- $annotations := dict }}
{{- if not $values.config.liveReload }}
{{- /* A changed application.yml rolls the pods; with live reload the service picks the file up in place. */}}
{{- $_ := set $annotations "checksum/config" (include (print $root.Template.BasePath .configFile) $root | sha256sum) }}
{{- end }}
{{- if .secretEnv }}
{{- /* Environment variables never change in a running container: a credential change always rolls the pods. */}}
{{- $_ := set $annotations "checksum/secret" (include (print $root.Template.BasePath "/secret.yaml") $root | sha256sum) }}
{{- end }}
{{- $annotations = merge $annotations $values.podAnnotations }}
{{- $grpcCheck := dict "port" ($values.containerPorts.grpc | int) "service" "" -}}
metadata:
  labels:
    {{- .labels | nindent 4 }}
    {{- with $values.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with $annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  {{- with $values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  serviceAccountName: {{ include "observatory.serviceAccountName" $root }}
  automountServiceAccountToken: false
  {{- with $values.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  securityContext:
    {{- toYaml $values.podSecurityContext | nindent 4 }}
  terminationGracePeriodSeconds: {{ $values.terminationGracePeriodSeconds }}
  containers:
    - name: observatory
      image: {{ include "observatory.image" $root | quote }}
      imagePullPolicy: {{ $values.image.pullPolicy }}
      args:
        - --spring.config.additional-location=/etc/observatory/application.yml
      env:
        {{- .env | nindent 8 }}
      ports:
        - name: grpc
          containerPort: {{ $values.containerPorts.grpc }}
          protocol: TCP
        - name: http-management
          containerPort: {{ $values.containerPorts.management }}
          protocol: TCP
      {{- /* Kubernetes' gRPC probe takes a port number, not a port name. */}}
      {{- with $values.probes.startup }}
      {{- if .enabled }}
      startupProbe:
        {{- toYaml (dict "grpc" $grpcCheck "periodSeconds" .periodSeconds "timeoutSeconds" .timeoutSeconds "failureThreshold" .failureThreshold) | nindent 8 }}
      {{- end }}
      {{- end }}
      {{- with $values.probes.readiness }}
      {{- if .enabled }}
      readinessProbe:
        {{- toYaml (dict "httpGet" (dict "path" "/actuator/health/readiness" "port" "http-management") "periodSeconds" .periodSeconds "timeoutSeconds" .timeoutSeconds "failureThreshold" .failureThreshold) | nindent 8 }}
      {{- end }}
      {{- end }}
      {{- with $values.probes.liveness }}
      {{- if .enabled }}
      livenessProbe:
        {{- toYaml (dict "grpc" $grpcCheck "periodSeconds" .periodSeconds "timeoutSeconds" .timeoutSeconds "failureThreshold" .failureThreshold) | nindent 8 }}
      {{- end }}
      {{- end }}
      resources:
        {{- toYaml $values.resources | nindent 8 }}
      securityContext:
        {{- toYaml $values.securityContext | nindent 8 }}
      volumeMounts:
        {{- /* The whole ConfigMap as a directory, not a subPath: only then does the kubelet update it in place. */}}
        - name: config
          mountPath: /etc/observatory
          readOnly: true
        - name: tmp
          mountPath: /tmp
        {{- if .state }}
        - name: state
          mountPath: {{ include "observatory.stateDir" $root }}
        {{- end }}
        {{- if .tokens }}
        - name: witness-tokens
          mountPath: {{ include "observatory.witnessTokensDir" $root }}
          readOnly: true
        {{- end }}
  volumes:
    - name: config
      configMap:
        name: {{ .configMap }}
    - name: tmp
      emptyDir:
        sizeLimit: {{ $values.tmpVolume.sizeLimit }}
    {{- if .state }}
    - name: state
      {{- with $values.state.existingClaim }}
      persistentVolumeClaim:
        claimName: {{ . }}
      {{- else }}
      emptyDir:
        sizeLimit: {{ $values.state.sizeLimit }}
      {{- end }}
    {{- end }}
    {{- with .tokens }}
    {{- list (include "observatory.witnessTokensVolume" . | fromYaml) | toYaml | nindent 4 }}
    {{- end }}
  {{- with .nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}

{{/*
Where the warm-restart state volume is mounted, and observatory.state.directory points.
*/}}
{{- define "observatory.stateDir" -}}
/var/lib/observatory
{{- end }}

{{/*
The incidents' settings as EnvVars: OBSERVATORY_INCIDENTS_ENABLED, and SPRING_DATASOURCE_URL (incidents.databaseUrl, or
an SQLite file in the state volume when the pods mount it, else in /tmp: the root filesystem is read-only). A YAML list.
Arguments: the root context and whether the pods mount the state volume.
*/}}
{{- define "observatory.incidentEnv" -}}
{{- $root := index . 0 }}
{{- $url := $root.Values.incidents.databaseUrl }}
{{- if not $url }}
{{- $url = printf "jdbc:sqlite:%s/observatory.db" (index . 1 | ternary (include "observatory.stateDir" $root) "/tmp") }}
{{- end }}
{{- toYaml (list (dict "name" "OBSERVATORY_INCIDENTS_ENABLED" "value" (toString $root.Values.incidents.enabled)) (dict "name" "SPRING_DATASOURCE_URL" "value" $url)) }}
{{- end }}
