// Package deploy holds no code: it is the home of the deployment files (the
// compose setup, nginx, Kubernetes, Prometheus, Alertmanager and Grafana
// configuration) and of the tests that keep them consistent with each other
// and with the Dockerfile:
//
//   - every Kubernetes manifest decodes strictly into its k8s.io/api type, and
//     the pods run as the Dockerfile's numeric user with a locked-down security
//     context, pinned images, probes, resources and Secrets that exist;
//   - the Services, the Ingresses and the PodDisruptionBudget select the
//     Deployment's pods, the Ingresses hash on the game id and never route
//     /metrics;
//   - the compose services all have healthchecks and restart policies, and
//     trust forwarded addresses from their own network only;
//   - every metric name that the alert rules and the dashboard use is served
//     by a live dsol (with DSOL_METRICS_SCRAPE, set by .ci/deploy-check.sh).
package deploy
