#version 410 core
// Force arrows with constant on-screen width: each instance is a segment
// start→end; the template (shaft quad + head triangle) is expanded in pixels.
layout(location = 0) in vec3 aParam; // x: 0 start, 1 head base, 2 tip; y: side -1..1; z: 1 on the head
layout(location = 1) in vec3 aBary;
layout(location = 2) in vec3 iStart;
layout(location = 3) in vec3 iEnd;
layout(location = 4) in vec4 iColor;

uniform mat4 uViewProj;
uniform vec2 uViewport;
uniform float uShaftPx; // shaft half width
uniform float uHeadPx;  // head length
uniform float uHeadWPx; // head half width

out float vSide;
out vec3 vBary;
flat out float vHead;
flat out vec4 vColor;

void main() {
	vec4 c0 = uViewProj * vec4(iStart, 1.0);
	vec4 c1 = uViewProj * vec4(iEnd, 1.0);
	const float eps = 1e-6;
	vColor = iColor;
	vSide = aParam.y;
	vBary = aBary;
	vHead = aParam.z;
	if (c0.w < eps && c1.w < eps) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
	if (c0.w < eps) c0 = mix(c0, c1, (eps - c0.w) / (c1.w - c0.w));
	if (c1.w < eps) c1 = mix(c1, c0, (eps - c1.w) / (c0.w - c1.w));
	vec2 s0 = c0.xy / c0.w * 0.5 * uViewport;
	vec2 s1 = c1.xy / c1.w * 0.5 * uViewport;
	vec2 d = s1 - s0;
	float L = length(d);
	vec2 dir = L > 1e-4 ? d / L : vec2(1.0, 0.0);
	vec2 perp = vec2(-dir.y, dir.x);
	float head = min(uHeadPx, 0.5 * L);
	float hw = uHeadWPx * head / uHeadPx;
	float sb = L > 1e-4 ? 1.0 - head / L : 0.0;   // head base as a screen fraction
	float s = aParam.x < 0.5 ? 0.0 : (aParam.x < 1.5 ? sb : 1.0);
	// screen fraction → clip parameter (perspective-correct)
	float t = s * c0.w / max(s * c0.w + (1.0 - s) * c1.w, 1e-12);
	vec4 c = mix(c0, c1, t);
	float w = aParam.z > 0.5 ? hw : min(uShaftPx, max(hw, 1.0));
	c.xy += perp * aParam.y * w * 2.0 / uViewport * c.w;
	gl_Position = c;
}
