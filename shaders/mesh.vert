#version 410 core
// Instanced body / wall / skin-shell mesh. Vertices are duplicated per face,
// so aNormal is the flat face normal and aBary the edge-distance helper.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aSkin;   // offset direction per metre of skin gap
layout(location = 3) in vec3 aBary;   // 1 on non-feature edges, barycentric otherwise
layout(location = 4) in vec4 iM0;
layout(location = 5) in vec4 iM1;
layout(location = 6) in vec4 iM2;
layout(location = 7) in vec4 iM3;
layout(location = 8) in vec4 iColor;

uniform mat4 uViewProj;
uniform float uInflate;

out vec3 vWorld;
out vec3 vNormal;
out vec3 vBary;
out vec4 vColor;

void main() {
	mat4 M = mat4(iM0, iM1, iM2, iM3);
	vec4 w = M * vec4(aPos + aSkin * uInflate, 1.0);
	vWorld = w.xyz;
	vNormal = mat3(M) * aNormal;
	vBary = aBary;
	vColor = iColor;
	gl_Position = uViewProj * w;
}
