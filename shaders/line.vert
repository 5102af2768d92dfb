#version 410 core
// Instanced unlit lines (wall outlines, bounding spheres).
layout(location = 0) in vec3 aPos;
layout(location = 4) in vec4 iM0;
layout(location = 5) in vec4 iM1;
layout(location = 6) in vec4 iM2;
layout(location = 7) in vec4 iM3;
layout(location = 8) in vec4 iColor;

uniform mat4 uViewProj;
out vec4 vColor;

void main() {
	vColor = iColor;
	gl_Position = uViewProj * (mat4(iM0, iM1, iM2, iM3) * vec4(aPos, 1.0));
}
