#version 410 core
in float vSide;
in vec3 vBary;
flat in float vHead;
flat in vec4 vColor;
uniform float uAlpha;
uniform float uShaftPx;
out vec4 outColor;
void main() {
	bool border;
	if (vHead > 0.5) {
		vec3 d = vBary / max(fwidth(vBary), vec3(1e-6));
		border = min(min(d.x, d.y), d.z) < 1.0;
	} else {
		border = abs(vSide) > 1.0 - 1.0 / max(uShaftPx, 1.0);
	}
	vec3 col = border ? vColor.rgb * 0.25 : vColor.rgb;
	outColor = vec4(col, vColor.a * uAlpha);
}
