#version 410 core
in float vY;
uniform vec3 uTop;
uniform vec3 uBottom;
out vec4 outColor;
void main() { outColor = vec4(mix(uBottom, uTop, clamp(vY, 0.0, 1.0)), 1.0); }
