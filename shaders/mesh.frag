#version 410 core
in vec3 vWorld;
in vec3 vNormal;
in vec3 vBary;
in vec4 vColor;

uniform vec3 uEye;
uniform vec3 uKey;    // unit direction towards the key light (camera-relative)
uniform vec3 uFill;   // unit direction towards the fill light
uniform float uEdge;  // feature-edge darkening, 0..1
uniform float uLit;   // 1 lit, 0 flat colour

out vec4 outColor;

void main() {
	vec3 n = normalize(vNormal);
	vec3 V = normalize(uEye - vWorld);
	if (dot(n, V) < 0.0) n = -n; // two-sided (open wall surfaces)
	vec3 base = vColor.rgb;
	vec3 col = base;
	if (uLit > 0.5) {
		float hemi = 0.5 + 0.5 * n.z; // Z-up sky/ground ambient
		vec3 amb = mix(vec3(0.16, 0.15, 0.14), vec3(0.34, 0.36, 0.40), hemi);
		float k = max(dot(n, uKey), 0.0);
		float f = max(dot(n, uFill), 0.0);
		float h = max(dot(n, V), 0.0);
		vec3 H = normalize(uKey + V);
		float s = pow(max(dot(n, H), 0.0), 40.0);
		col = base * (amb + 0.70 * k + 0.22 * f + 0.18 * h) + vec3(0.16 * s);
	}
	if (uEdge > 0.0) {
		vec3 d = vBary / max(fwidth(vBary), vec3(1e-6));
		float e = min(min(d.x, d.y), d.z);
		float line = 1.0 - smoothstep(0.4, 1.4, e);
		col = mix(col, col * 0.30, line * uEdge);
	}
	outColor = vec4(col, vColor.a);
}
