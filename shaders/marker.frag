#version 410 core
in vec2 vCorner;
flat in vec4 vColor;
flat in float vSel;
flat in float vRadiusPx;
uniform float uAlpha;
out vec4 outColor;
void main() {
	float r = length(vCorner);
	if (r > 1.0) discard;
	float rim = 1.0 - 1.3 / max(vRadiusPx, 1.0); // ~1.3 px dark rim
	vec3 col = vColor.rgb;
	if (r > rim) col = vSel > 0.5 ? vec3(1.0) : vec3(0.04);
	outColor = vec4(col, vColor.a * uAlpha);
}
