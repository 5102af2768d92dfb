#version 410 core
// Contact markers: screen-facing discs of constant pixel size, pulled towards
// the eye by their own radius so a marker on a visible surface is not half buried.
layout(location = 0) in vec2 aCorner;
layout(location = 1) in vec3 iCenter;
layout(location = 2) in vec4 iColor;
layout(location = 3) in vec2 iSizeSel; // x: radius in px, y: 1 when selected

uniform mat4 uViewProj;
uniform vec2 uViewport;
uniform vec3 uEye;
uniform float uPxScale; // world size of one pixel at unit distance

out vec2 vCorner;
flat out vec4 vColor;
flat out float vSel;
flat out float vRadiusPx;

void main() {
	float r = iSizeSel.x;
	vec3 toEye = uEye - iCenter;
	float dist = length(toEye);
	vec3 p = iCenter + (dist > 0.0 ? toEye / dist : vec3(0.0)) * min(r * uPxScale * dist, 0.5 * dist);
	vec4 c = uViewProj * vec4(p, 1.0);
	c.xy += aCorner * r * 2.0 / uViewport * c.w;
	gl_Position = c;
	vCorner = aCorner;
	vColor = iColor;
	vSel = iSizeSel.y;
	vRadiusPx = r;
}
