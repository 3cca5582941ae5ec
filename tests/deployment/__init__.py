"""The production deployment (docker-compose.yml, deploy/k8s/) run and checked."""
