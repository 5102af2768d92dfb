#version 410 core
in vec2 vXY;
uniform vec2 uCenter;
uniform float uHalf;
uniform float uStep;
out vec4 outColor;
float lines(vec2 p, float step) {
	vec2 g = p / step;
	vec2 w = fwidth(g);
	vec2 a = abs(fract(g - 0.5) - 0.5) / max(w, vec2(1e-6));
	return 1.0 - min(min(a.x, a.y), 1.0);
}
void main() {
	float minor = lines(vXY, uStep);
	float major = lines(vXY, uStep * 10.0);
	float fade = 1.0 - smoothstep(0.3, 1.0, length(vXY - uCenter) / uHalf);
	float a = max(minor * 0.22, major * 0.5) * fade;
	vec3 col = vec3(0.62, 0.65, 0.70);
	// x axis reddish, y axis greenish
	vec2 ax = abs(vXY) / max(fwidth(vXY), vec2(1e-6));
	if (ax.y < 1.0) { col = vec3(0.75, 0.35, 0.35); a = max(a, 0.7 * fade); }
	if (ax.x < 1.0) { col = vec3(0.35, 0.70, 0.35); a = max(a, 0.7 * fade); }
	if (a <= 0.003) discard;
	outColor = vec4(col, a);
}
