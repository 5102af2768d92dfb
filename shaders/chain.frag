#version 410 core
flat in vec4 vColor;
uniform float uAlpha;
out vec4 outColor;
void main() { outColor = vec4(vColor.rgb, vColor.a * uAlpha); }
